'use strict';

// GET /me: who the key belongs to; what n8n's credential test calls.

function accountRoutes({ limiter }) {
	return [
		{
			method: 'GET',
			path: '/me',
			summary: 'Account, workspace, plan, key and limits (tests the connection)',
			success: { status: 200, description: 'The account behind the key' },
			handle: ({ workspace, apiKey, keyRecord }) => ({
				status: 200,
				json: {
					data: {
						object: 'account',
						account: {
							id: workspace.owner.id,
							name: workspace.owner.name,
							email: workspace.owner.email,
						},
						workspace: { id: workspace.id, name: workspace.name },
						plan: { ...workspace.plan },
						key: { access: keyRecord.access, prefix: apiKey.slice(0, 8) },
						limits: { requests_per_minute: limiter.config().perMinute },
					},
				},
			}),
		},
	];
}

module.exports = { accountRoutes };
