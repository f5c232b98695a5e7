'use strict';

const { invalid } = require('./http-util');

const DEFAULT_PER_PAGE = 25;
const MAX_PER_PAGE = 100;

/**
 * Set on a call's query by a reading whose service answers a page past the end with the last
 * page (readings/page-past-end-repeats-last). A symbol, so it never shows in the links.
 */
const LAST_PAGE_PAST_THE_END = Symbol('a page past the end is the last page');

function positiveInteger(query, name, fallback) {
	const raw = query[name];
	if (raw === undefined || raw === '') return fallback;
	if (!/^\d+$/.test(raw) || Number(raw) < 1)
		throw invalid({ [name]: `${name} must be a whole number of at least 1.` });
	return Number(raw);
}

/**
 * One page of `items` as `{ data, links, meta }`. `listUrl` is the list's absolute URL; links keep
 * the caller's other query parameters.
 */
function paginate(items, query, listUrl) {
	const requested = positiveInteger(query, 'page', 1);
	const perPage = positiveInteger(query, 'per_page', DEFAULT_PER_PAGE);
	if (perPage > MAX_PER_PAGE)
		throw invalid({ per_page: `per_page must be at most ${MAX_PER_PAGE}.` });
	const total = items.length;
	const lastPage = Math.max(1, Math.ceil(total / perPage));
	const page = query[LAST_PAGE_PAST_THE_END] ? Math.min(requested, lastPage) : requested;
	const linkTo = (target) => {
		const url = new URL(listUrl);
		for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
		url.searchParams.set('page', String(target));
		url.searchParams.set('per_page', String(perPage));
		return url.toString();
	};
	return {
		data: items.slice((page - 1) * perPage, page * perPage),
		links: {
			first: linkTo(1),
			last: linkTo(lastPage),
			prev: page > 1 ? linkTo(Math.min(page - 1, lastPage)) : null,
			next: page < lastPage ? linkTo(page + 1) : null,
		},
		meta: { current_page: page, last_page: lastPage, per_page: perPage, total },
	};
}

/**
 * For readings that answer lists in another shape: `reshape(page)` gets the sandbox's own
 * `{ data, links, meta }` and returns the body to send instead. Other answers pass unchanged.
 */
function reshapeList(call, answer, reshape) {
	const json = answer?.json;
	const isList =
		call.method === 'GET' &&
		answer.status === 200 &&
		Array.isArray(json?.data) &&
		json.links !== undefined &&
		json.meta !== undefined;
	return isList ? { ...answer, json: reshape(json) } : answer;
}

module.exports = { paginate, reshapeList, DEFAULT_PER_PAGE, MAX_PER_PAGE, LAST_PAGE_PAST_THE_END };
