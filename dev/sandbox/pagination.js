'use strict';

const { invalid } = require('./http-util');

const DEFAULT_PER_PAGE = 25;
const MAX_PER_PAGE = 100;

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
	const page = positiveInteger(query, 'page', 1);
	const perPage = positiveInteger(query, 'per_page', DEFAULT_PER_PAGE);
	if (perPage > MAX_PER_PAGE)
		throw invalid({ per_page: `per_page must be at most ${MAX_PER_PAGE}.` });
	const total = items.length;
	const lastPage = Math.max(1, Math.ceil(total / perPage));
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

module.exports = { paginate, reshapeList, DEFAULT_PER_PAGE, MAX_PER_PAGE };
