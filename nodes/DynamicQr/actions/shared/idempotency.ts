import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * The default Idempotency-Key: the same for every attempt at one item of one node run (so
 * n8n's Retry On Fail and the API client's retries replay instead of duplicating), and
 * different for every other item, run and execution.
 */
export function defaultIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const runIndex = ctx.evaluateExpression('{{ $runIndex }}', itemIndex);
	const source = [
		ctx.getWorkflow().id,
		ctx.getExecutionId(),
		ctx.getNode().id,
		runIndex,
		itemIndex,
	].join(':');
	return `n8n-${createHash('sha256').update(source).digest('hex').slice(0, 40)}`;
}
