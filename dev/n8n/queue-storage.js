'use strict';
/**
 * What a queue-mode cluster keeps in the machine's PostgreSQL and Redis: a database of its own
 * and keys under a prefix of its own, created and removed through the `psql` and `redis-cli`
 * command-line clients (no npm dependency).
 */
const { spawnSync } = require('node:child_process');

/** Runs one SQL statement; resolves to psql's unaligned output. */
function psql(pg, sql, { database = 'postgres' } = {}) {
	const result = spawnSync(
		'psql',
		[
			'-h',
			pg.host,
			'-p',
			String(pg.port),
			'-U',
			pg.user,
			'-d',
			database,
			'-v',
			'ON_ERROR_STOP=1',
			'-At',
			'-c',
			sql,
		],
		{ encoding: 'utf8', env: { ...process.env, PGCONNECT_TIMEOUT: '10' } },
	);
	if (result.status !== 0) {
		throw new Error(
			`psql failed (${result.status}): ${(result.stderr || result.error || '').toString().trim()}`,
		);
	}
	return result.stdout.trim();
}

function redisCli(redis, args) {
	const result = spawnSync('redis-cli', ['-h', redis.host, '-p', String(redis.port), ...args], {
		encoding: 'utf8',
	});
	if (result.status !== 0 || /^ERR/m.test(result.stdout)) {
		throw new Error(
			`redis-cli ${args[0]} failed (${result.status}): ${(result.stderr || result.stdout || '').trim()}`,
		);
	}
	return result.stdout.trim();
}

// Deletes, inside Redis, every key matching one pattern (SCAN + DEL in one script, so nothing
// crosses the wire key by key). Returns how many were deleted.
const DELETE_MATCHING = `
local cursor = "0"
local deleted = 0
repeat
	local answer = redis.call("SCAN", cursor, "MATCH", ARGV[1], "COUNT", 1000)
	cursor = answer[1]
	for _, key in ipairs(answer[2]) do
		redis.call("DEL", key)
		deleted = deleted + 1
	end
until cursor == "0"
return deleted`;

// Bull and n8n's pub/sub, leader and cache keys start with the prefix; in cluster mode n8n wraps
// it in a {hash tag}.
const keyPatterns = (prefix) => [`${prefix}*`, `{${prefix}*`];

function deleteRedisKeys(redis, prefix) {
	let deleted = 0;
	for (const pattern of keyPatterns(prefix)) {
		deleted += Number(redisCli(redis, ['EVAL', DELETE_MATCHING, '0', pattern]) || 0);
	}
	return deleted;
}

function countRedisKeys(redis, prefix) {
	let count = 0;
	for (const pattern of keyPatterns(prefix)) {
		const out = redisCli(redis, ['--scan', '--pattern', pattern]);
		count += out ? out.split('\n').filter(Boolean).length : 0;
	}
	return count;
}

/**
 * The database and key prefix named `name`: create() makes the database (and makes sure no key
 * is left under the prefix), remove() drops both and returns the problems met (an empty list
 * when all went well), so a failed start and stop() clean up alike.
 */
function clusterStorage({ name, pg, redis }) {
	let databaseCreated = false;
	return {
		create() {
			psql(pg, `CREATE DATABASE "${name}"`);
			databaseCreated = true;
			deleteRedisKeys(redis, name);
		},
		remove() {
			const problems = [];
			if (databaseCreated) {
				try {
					psql(pg, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
					databaseCreated = false;
				} catch (error) {
					problems.push(error.message);
				}
			}
			try {
				deleteRedisKeys(redis, name);
			} catch (error) {
				problems.push(error.message);
			}
			return problems;
		},
		databaseExists: () =>
			psql(pg, `SELECT count(*) FROM pg_database WHERE datname = '${name}'`) === '1',
		redisKeyCount: () => countRedisKeys(redis, name),
	};
}

module.exports = { clusterStorage, psql };
