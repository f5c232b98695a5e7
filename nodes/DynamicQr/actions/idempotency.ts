import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The same for every attempt at one item of one node run of one workflow run (Retry On Fail, the
 * client's retries, Retry of a failed execution), different for any other. A first execution's
 * key is what it was before retries were covered.
 */
export function defaultIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	// The first execution's id: n8n 1.x and 2.x save the node's context with the execution, and a
	// Retry continues from it (custom data too, but n8n 1.x offers it only to expressions, 10 keys).
	const context = ctx.getContext('node');
	if (typeof context.runId !== 'string' || !context.runId) context.runId = ctx.getExecutionId();
	const runIndex = ctx.evaluateExpression('{{ $runIndex }}', itemIndex);
	const parts = [ctx.getWorkflow().id, context.runId, ctx.getNode().id, runIndex, itemIndex];
	return `n8n-${createHash('sha256').update(parts.join(':')).digest('hex').slice(0, 40)}`;
}
