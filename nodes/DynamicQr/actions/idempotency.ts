import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The first execution's id, kept in the node's execution context: n8n 1.x and 2.x save it with the
 * execution, and a Retry of a failed execution continues from it. (Custom data is carried over too,
 * but n8n 1.x offers it to nodes only through expressions, and it holds at most 10 keys.)
 */
function runIdOf(ctx: IExecuteFunctions): string {
	const context = ctx.getContext('node');
	if (typeof context.runId !== 'string' || !context.runId) context.runId = ctx.getExecutionId();
	return context.runId as string;
}

/**
 * The same for every attempt at one item of one node run of one workflow run (Retry On Fail, the
 * client's retries, Retry of a failed execution), different for any other. A first execution's
 * key is what it was before retries were covered.
 */
export function defaultIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const runIndex = ctx.evaluateExpression('{{ $runIndex }}', itemIndex);
	const parts = [ctx.getWorkflow().id, runIdOf(ctx), ctx.getNode().id, runIndex, itemIndex];
	return `n8n-${createHash('sha256').update(parts.join(':')).digest('hex').slice(0, 40)}`;
}
