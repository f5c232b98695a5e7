import { type IWebhookFunctions, NodeOperationError } from 'n8n-workflow';

import type { TriggerSettings } from './filters';
import { triggerKey } from './ledger';
import { sourceOf } from './secret';
import { FAILURES } from './signature';

/**
 * A refused delivery made visible (docs/triggers.md, "Refused deliveries"). In the editor's test
 * listen every refusal ends the wait with an error. In production, once requests that carry a
 * signature have been refused for REFUSED_FOR_MS with none accepted between, one fails an
 * execution (n8n's executions list and Error Workflow show it), at most one per trigger and process
 * in REPORT_EVERY_MS: a flood of forged requests starts next to nothing, a delivery refused in
 * the moment before n8n saved a new secret (its retry verifies) starts nothing, and no refusal
 * writes static data.
 */
export const REFUSED_FOR_MS = 20_000;
export const REPORT_EVERY_MS = 10 * 60_000;
/**
 * Per trigger, since when signed requests are refused and when that was last reported.
 * Kept for the process: writing it would save static data on every refusal.
 */
const refusing = new Map<string, { sinceMs?: number; reportedMs: number }>();

type Reason = keyof typeof FAILURES;
/** What a signed delivery refused for these reasons says about the setup; others are not deliveries. */
const SIGNED_REFUSALS: Reason[] = [
	'invalid_secret',
	'no_matching_signature',
	'timestamp_too_old',
	'timestamp_too_new',
];

function fixFor(ctx: IWebhookFunctions, settings: TriggerSettings, reason: Reason): string {
	const dashboard = settings.mode === 'dashboard';
	const relist =
		'deactivate and activate the workflow (n8n 2.x: unpublish and publish it), so that the trigger registers its endpoint again';
	switch (reason) {
		case 'invalid_secret':
			return dashboard
				? `Copy the signing secret (whsec_…) of the endpoint for this node's Production URL from the service's dashboard into ${sourceOf(ctx)}.`
				: `No signing secret is stored for this workflow: ${relist}.`;
		case 'no_matching_signature':
			return dashboard
				? `The secret in ${sourceOf(ctx)} is not the one the service signs this endpoint's deliveries with: copy the endpoint's current signing secret (whsec_…) from the service's dashboard into it.`
				: `The delivery was signed for another endpoint than the one this workflow registered (one left from an earlier activation, or another workflow's): ${relist}, and delete endpoints you no longer use at the service.`;
		case 'timestamp_too_old':
		case 'timestamp_too_new':
			return "n8n's clock and the service's differ by more than 5 minutes, or someone sent an old delivery again: check that this machine's clock is set (NTP).";
		default:
			return "Only the service's signed deliveries start this trigger: make an event happen at the service (create or scan a QR code, share a lead) instead of calling the URL yourself.";
	}
}

/** A verified delivery ends a spell of refusals (when one was last reported is kept). */
export function acceptedDelivery(ctx: IWebhookFunctions): void {
	const spell = refusing.size ? refusing.get(triggerKey(ctx)) : undefined;
	if (spell) spell.sinceMs = undefined;
}

/** Throws the refusal as the error the user should see, when it is to be seen. */
export function showRefusal(
	ctx: IWebhookFunctions,
	settings: TriggerSettings,
	reason: Reason,
	signed: boolean,
	nowMs: number,
): void {
	if (ctx.getMode() !== 'manual') {
		if (!signed || !SIGNED_REFUSALS.includes(reason)) return;
		const trigger = triggerKey(ctx);
		const spell = refusing.get(trigger) ?? { reportedMs: -Infinity };
		refusing.set(trigger, spell);
		spell.sinceMs ??= nowMs;
		if (nowMs - spell.sinceMs < REFUSED_FOR_MS) return;
		if (nowMs - spell.reportedMs < REPORT_EVERY_MS) return;
		spell.reportedMs = nowMs;
	}
	throw new NodeOperationError(ctx.getNode(), `A delivery was refused: ${FAILURES[reason]}`, {
		description: fixFor(ctx, settings, reason),
	});
}
