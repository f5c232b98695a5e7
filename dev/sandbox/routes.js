'use strict';

// Path templates like /qr-codes/{id} matched against request paths.

function compilePath(template) {
	const names = [];
	const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name) => {
		names.push(name);
		return '([^/]+)';
	});
	const pattern = new RegExp(`^${source}$`);
	return (path) => {
		const match = pattern.exec(path);
		if (!match) return null;
		try {
			return Object.fromEntries(
				names.map((name, index) => [name, decodeURIComponent(match[index + 1])]),
			);
		} catch {
			return null; // malformed percent-encoding cannot name a record
		}
	};
}

/** A lookup over route objects ({ method, path }): find(method, path) -> { route, params } | null. */
function createRouteTable(routes) {
	const compiled = routes.map((route) => ({ route, match: compilePath(route.path) }));
	return {
		find(method, path) {
			const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
			for (const { route, match } of compiled) {
				if (route.method !== method) continue;
				const params = match(normalized);
				if (params) return { route, params };
			}
			return null;
		},
	};
}

module.exports = { createRouteTable };
