import type { ApiClient } from '../api';

/**
 * How many requests a poll may send: the rule every poll that reads a long list shares, so that
 * polling never takes the plan from the workflows acting on the same key (a bulk create, an AI
 * agent's tool calls) and always ends within n8n's poll budget. Half by default: the other half
 * still runs a bulk create at half its speed, and a 10,000-code sweep at 60 a minute takes minutes.
 */
export const DEFAULT_PLAN_SHARE_PERCENT = 50;
/** When neither the setting nor any answer tells the plan's rate: the smallest plan we know. */
const ASSUMED_PLAN_LIMIT = 60;
const MINUTE_MS = 60_000;
/** Of n8n's poll budget, what paced requests may fill; the rest is for their answers. */
const BUDGET_USE = 0.8;

export interface ShareSettings {
	/** Share of Plan (%), 1 to 100. */
	sharePercent: number;
	/** Plan Requests per Minute when set; else told or learnt by the answers (api/rate.ts). */
	planLimit?: number;
	/** The bound past polls learnt from `X-RateLimit-Remaining`, kept in the cursor. */
	learntLimit?: number;
	/** Since the last poll, in ms; undefined on the first (it takes the least: its interval is not known). */
	sinceLastPollMs?: number;
}

/** The plan's requests a minute, as far as it is known now. */
const planLimitOf = (client: ApiClient, settings: ShareSettings) =>
	settings.planLimit ??
	client.rate.saidLimit ??
	(learntLimit(client, settings) || ASSUMED_PLAN_LIMIT);

/** What to keep for the next poll: the highest bound `X-RateLimit-Remaining` gave so far. */
export const learntLimit = (client: ApiClient, settings: ShareSettings) =>
	Math.max(client.rate.leftBound ?? 0, settings.learntLimit ?? 0) || undefined;

/**
 * The share of a minute of the plan (less for polls more often than once a minute), and no more
 * than the pacing can send in what is left of the budget. At least 2: the first page and one more.
 */
export function requestsPerPoll(client: ApiClient, settings: ShareSettings): number {
	const limit = planLimitOf(client, settings);
	const spanMs = Math.min(settings.sinceLastPollMs ?? 0, MINUTE_MS);
	const share = ((limit * settings.sharePercent) / 100) * (spanMs / MINUTE_MS);
	const inBudget = (limit * Math.max(0, client.msLeft()) * BUDGET_USE) / MINUTE_MS;
	return Math.max(2, Math.floor(Math.min(share, inBudget)));
}
