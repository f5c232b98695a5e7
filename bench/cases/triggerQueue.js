'use strict';
/**
 * Case 3c: deliveries per second in n8n queue mode, with one and with two webhook processors
 * (dev/n8n/queue.js: main, one worker, N `n8n webhook` processes behind the harness's
 * round-robin balancer, on the machine's PostgreSQL and Redis). Our trigger at version 2, with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on every process as the README's Scaling section
 * advises; deliveries go to the balancer, executions run on the worker. Otherwise the same method
 * as case 3a (bench/cases/trigger.js).
 */
const { startQueueCluster } = require('../../dev/n8n/queue');
const trigger = require('./trigger');

async function run({ repeats, deliveries, log, processorCounts = [1, 2] }) {
	const results = {};
	for (const webhookProcessors of processorCounts) {
		log(`queue mode with ${webhookProcessors} webhook processor(s): starting the cluster`);
		const cluster = await startQueueCluster({
			webhookProcessors,
			log,
			env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true', N8N_LOG_LEVEL: 'warn' },
		});
		try {
			const measured = await trigger.run({ n8n: cluster, repeats, deliveries, log, keys: ['oursV2'] });
			results[webhookProcessors] = {
				webhookProcessors,
				...measured.results.oursV2,
				label: `${webhookProcessors} webhook processor${webhookProcessors > 1 ? 's' : ''}, 1 worker`,
			};
		} finally {
			await cluster.stop();
		}
	}
	return { results };
}

module.exports = { run };
