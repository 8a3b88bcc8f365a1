/**
 * The imprint's operator, which a production server on a public APP_URL must
 * name (app/env.server.ts refuses to start without it): for tests that parse
 * such an environment.
 */
export const OPERATOR = {
	OPERATOR_NAME: 'Dares Ltd',
	OPERATOR_ADDRESS: '1 Main St\\nSpringfield',
	OPERATOR_EMAIL: 'legal@dares.example',
} as const
