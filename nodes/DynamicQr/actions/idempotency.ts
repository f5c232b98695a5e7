import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The id of the run this execution belongs to: the first execution's id, which the node keeps in
 * its execution context (`getContext('node')`). n8n saves that context with the execution and a
 * Retry of a failed execution (with the original or the current workflow) continues from the saved
 * execution data, context included, in n8n 1.x and 2.x; a new run starts with an empty context.
 * (The execution's custom data is carried over too, but n8n 1.x offers it to nodes only through
 * expressions, whose sandbox hides its functions, and it holds at most 10 keys.)
 */
function runIdOf(ctx: IExecuteFunctions): string {
	const context = ctx.getContext('node');
	if (typeof context.runId !== 'string' || !context.runId) context.runId = ctx.getExecutionId();
	return context.runId as string;
}

/**
 * The default Idempotency-Key: the same for every attempt at one item of one node run of one
 * workflow run (so n8n's Retry On Fail, the API client's retries and n8n's Retry of a failed
 * execution replay instead of duplicating), and different for every other item, node run and
 * workflow run. For a first execution the key is what it was before retries were covered.
 */
export function defaultIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const runIndex = ctx.evaluateExpression('{{ $runIndex }}', itemIndex);
	const source = [ctx.getWorkflow().id, runIdOf(ctx), ctx.getNode().id, runIndex, itemIndex].join(
		':',
	);
	return `n8n-${createHash('sha256').update(source).digest('hex').slice(0, 40)}`;
}
