'use strict';
/**
 * The README's "Each event once" recipe, read from the README as a user reads it: the table to
 * create, the claim query, and the settings of the two n8n nodes, as the nodes a user builds by
 * following it. test/e2e/n8n.e2e.js builds exactly this in a real n8n; test/docs.test.js checks
 * that the README still says every setting. A README that drops or changes a setting fails both.
 */
const { node } = require('./workflow-builder');

const SECTION = '## Each event once';
const CLAIM_NODE = 'Claim event key';
const FILTER_NODE = 'New events only';

/** What the README says (as n8n's editor shows it), and the parameters it sets. */
const CLAIM_SETTINGS = [
	[`A **Postgres** node named *${CLAIM_NODE}*`, { resource: 'database' }],
	['Operation *Execute Query*', { operation: 'executeQuery' }],
	[
		'under Options, *Query Parameters* `{{ $json.event_key }}`',
		{ options: { queryReplacement: '={{ $json.event_key }}' } },
	],
];
const FILTER_SETTINGS = [
	[`A **Merge** node named *${FILTER_NODE}*`, {}],
	['Mode *Combine*', { mode: 'combine' }],
	['Combine By *Matching Fields*', { combineBy: 'combineByFields' }],
	['Fields to Match `event_key`', { fieldsToMatchString: 'event_key' }],
	['Output Type *Keep Matches*', { joinMode: 'keepMatches' }],
	['Output Data From *Input 1*', { outputDataFrom: 'input1' }],
];
const WIRING = [
	`Connect each trigger (the Dynamic QR Trigger, the Polling Trigger if you use both) to *${CLAIM_NODE}* and to input 1 of *${FILTER_NODE}*, and *${CLAIM_NODE}* to input 2`,
	`The nodes that act go after *${FILTER_NODE}*`,
];

/** The README's recipe section, its whitespace folded as a reader folds line breaks. */
function recipeSection(readme) {
	const start = readme.indexOf(`\n${SECTION}\n`);
	if (start < 0) throw new Error(`The README has no "${SECTION}" section`);
	const end = readme.indexOf('\n## ', start + SECTION.length + 2);
	return readme.slice(start, end < 0 ? undefined : end);
}

/** Merges the parameters of the settings, throwing for the first the README no longer says. */
function parametersSaid(folded, settings) {
	const parameters = {};
	for (const [words, values] of settings) {
		if (!folded.includes(words)) throw new Error(`The README's recipe no longer says: ${words}`);
		Object.assign(parameters, values);
	}
	return parameters;
}

/**
 * The recipe as the README says it: `createTable` and `claimQuery` (its two SQL blocks, in
 * order), and `build({ triggers, next, credential })`: the two nodes (the claim with the Postgres
 * credential named `credential`) and the connections from the trigger nodes named in `triggers`
 * through them to the node named `next`.
 */
function readRecipe(readme) {
	const section = recipeSection(readme);
	const folded = section.replace(/\s+/g, ' ');
	const sql = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1].trim());
	if (sql.length !== 2) throw new Error(`The README's recipe has ${sql.length} SQL blocks, not 2`);
	const claim = parametersSaid(folded, CLAIM_SETTINGS);
	const filter = parametersSaid(folded, FILTER_SETTINGS);
	parametersSaid(
		folded,
		WIRING.map((words) => [words, {}]),
	);
	const [createTable, claimQuery] = sql;
	return {
		createTable,
		claimQuery,
		claimNode: CLAIM_NODE,
		filterNode: FILTER_NODE,
		build: ({ triggers, next, credential }) => ({
			nodes: [
				node(
					'n8n-nodes-base.postgres',
					{ ...claim, query: claimQuery },
					{
						name: CLAIM_NODE,
						typeVersion: 2.7,
						credentials: { postgres: { name: credential } },
					},
				),
				node('n8n-nodes-base.merge', filter, { name: FILTER_NODE, typeVersion: 3.2 }),
			],
			links: [
				...triggers.flatMap((trigger) => [
					[trigger, CLAIM_NODE],
					[trigger, FILTER_NODE, { input: 0 }],
				]),
				[CLAIM_NODE, FILTER_NODE, { input: 1 }],
				[FILTER_NODE, next],
			],
		}),
	};
}

module.exports = { readRecipe };
