import { type RouteConfig, index, route } from '@react-router/dev/routes'

/**
 * Every page exists under /{lang} (en, de, es, tr); `/` sends the visitor to
 * their language's home. Only the files named here are routes; their
 * server code lives with its feature in app/modules.
 */
export default [
	index('routes/root-redirect.tsx'),
	route('_i18n/:locale/messages.json', 'routes/i18n-messages.ts'),
	route('robots.txt', 'routes/robots.ts'),
	route('sitemap.xml', 'routes/sitemap.ts'),
	route('dev/mailbox', 'routes/dev-mailbox.tsx'),
	route('consent', 'routes/consent.ts'),
	route('api/auth/create', 'routes/api/auth-create.ts'),
	route('api/auth/consent', 'routes/api/auth-consent.ts'),
	route('api/auth/delete', 'routes/api/auth-delete.ts'),
	route('api/auth/username', 'routes/api/auth-username.ts'),
	route('api/auth/provider/*', 'routes/api/auth-provider.ts'),
	route('api/channels/callback/:platform', 'routes/api/channels-callback.ts'),
	route('api/session', 'routes/api/session.ts'),
	route('api/realtime/token', 'routes/api/realtime-token.ts'),
	route('api/shop/buy', 'routes/api/shop-buy.ts'),
	route('api/stripe/webhook', 'routes/api/stripe-webhook.ts'),
	route(':lang', 'routes/lang.tsx', [
		index('routes/home.tsx'),
		route('shop', 'routes/shop.tsx'),
		route('shop/success', 'routes/shop-result.tsx', { id: 'shop-success' }),
		route('shop/cancel', 'routes/shop-result.tsx', { id: 'shop-cancel' }),
		route('terms', 'routes/terms.tsx'),
		route('privacy', 'routes/privacy.tsx'),
		route('imprint', 'routes/imprint.tsx'),
		route('creator-agreement', 'routes/creator-agreement.tsx'),
		route('confirm', 'routes/confirm.tsx'),
		route('register', 'routes/register.tsx'),
		route('password-reset', 'routes/password-reset.tsx'),
		route('login', 'routes/login.tsx'),
		route('settings', 'routes/settings/route.tsx'),
		route('settings/channels', 'routes/channels.tsx'),
		route('start-session', 'routes/start-session.tsx'),
		route('earnings', 'routes/earnings.tsx'),
		route('earnings/test-onboarding', 'routes/earnings-test-onboarding.tsx'),
		route('logout', 'routes/logout.ts'),
		route('session/:id', 'routes/session.tsx'),
		route('session/:id/card.png', 'routes/session-card.ts'),
		route('overlay/:sessionId', 'routes/overlay.tsx'),
		route('operator', 'routes/operator.tsx'),
		route('appeal/:decisionId', 'routes/appeal.tsx'),
		route(':platform/:channel', 'routes/channel.tsx'),
		route('*', 'routes/not-found.tsx', { id: 'lang-not-found' }),
	]),
	route('*', 'routes/not-found.tsx', { id: 'not-found' }),
] satisfies RouteConfig
