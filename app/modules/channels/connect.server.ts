import * as oauth from 'oauth4webapi'
import { createCookie, redirect, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { z } from 'zod'
import { translateError } from '#app/i18n/errors'
import { servicesContext } from '#app/context.server'
import { toAppError } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { getInstance } from '#app/i18n/i18next.server'
import { DEFAULT_LOCALE, isLocale, LOCALE_CODES, type Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { cookieSecret } from '#app/security/cookie-secret.server'
import { queryAsViewer } from '#app/utils/db.server'
import { safeRedirectPath } from '#app/utils/redirect'
import type { ChannelPlatform } from './platforms'
import { ChannelApiError, channelProviders, type ChannelProvider } from './providers.server'

/**
 * Connecting a YouTube or Kick channel (ADR 037): the settings' "Connect"
 * button posts here, the browser goes through the platform's consent, and the
 * platform sends it back to /api/channels/callback/{platform}. The flow is
 * OAuth 2.0's authorization code grant with PKCE (oauth4webapi, which checks
 * the state and the token response); what it proves (this user runs this
 * channel) is recorded by the owner's connection and linked by the user's own
 * call to public.link_channel, which applies the rules.
 *
 * Between the two legs a signed, HttpOnly cookie scoped to the callback path
 * holds the state, the PKCE verifier, the user who started, where to return
 * and the page's language; it lives ten minutes and is cleared by the
 * callback, so a callback URL works once, in the browser that started it,
 * for the user who started it.
 */

const CONNECT_COOKIE = 'channel-connect'
const CONNECT_SECONDS = 600
const CALLBACK_PATH = '/api/channels/callback'

const ConnectState = z.object({
	platform: z.enum(['youtube', 'kick']),
	state: z.string().min(16).max(200),
	verifier: z.string().min(43).max(128),
	userId: z.string().uuid(),
	back: z.string().startsWith('/').max(2000),
	lang: z.enum(LOCALE_CODES as [Locale, ...Locale[]]),
	issuedAt: z.number().int(),
})
type ConnectState = z.infer<typeof ConnectState>

type Ctx = Readonly<RouterContextProvider>

function connectCookie(env: Env) {
	return createCookie(CONNECT_COOKIE, {
		secrets: [cookieSecret(env, 'channel-connect').secret],
		httpOnly: true,
		sameSite: 'lax',
		secure: env.APP_URL.startsWith('https:'),
		path: CALLBACK_PATH,
		maxAge: CONNECT_SECONDS,
	})
}

const callbackUrl = (env: Env, platform: ChannelPlatform) => `${env.APP_URL.replace(/\/+$/, '')}${CALLBACK_PATH}/${platform}`

function authorizationServer(provider: ChannelProvider): oauth.AuthorizationServer {
	return {
		issuer: new URL(provider.authorizationEndpoint).origin,
		authorization_endpoint: provider.authorizationEndpoint,
		token_endpoint: provider.tokenEndpoint,
	}
}

/** http endpoints are the tests' loopback stand-ins (the env schema allows only http and https). */
const insecure = (provider: ChannelProvider) => provider.tokenEndpoint.startsWith('http:')

/** The configured platforms a creator can connect, for the settings page. */
export function connectablePlatforms(env: Env): ChannelPlatform[] {
	return Object.keys(channelProviders(env)) as ChannelPlatform[]
}

/**
 * POST intent=connect: sends the viewer to the platform's consent page.
 * `back` is where the callback returns to (a path of this site).
 */
export async function startChannelConnect(request: Request, context: Ctx, lang: Locale, platform: ChannelPlatform, back: string) {
	const viewer = requireViewer(request, context)
	const { env } = context.get(servicesContext)
	const { t } = getInstance(context)
	const provider = channelProviders(env)[platform]
	if (!provider) return redirectWithError(back, t('errors.error-channel-connect-unavailable'))

	const verifier = oauth.generateRandomCodeVerifier()
	const state: ConnectState = {
		platform,
		state: oauth.generateRandomState(),
		verifier,
		userId: viewer.userId,
		back,
		lang,
		issuedAt: Date.now(),
	}
	const url = new URL(provider.authorizationEndpoint)
	url.searchParams.set('response_type', 'code')
	url.searchParams.set('client_id', provider.clientId)
	url.searchParams.set('redirect_uri', callbackUrl(env, platform))
	url.searchParams.set('scope', provider.scopes.join(' '))
	url.searchParams.set('state', state.state)
	url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier))
	url.searchParams.set('code_challenge_method', 'S256')
	for (const [key, value] of Object.entries(provider.authorizationParams)) url.searchParams.set(key, value)
	return redirect(url.toString(), { headers: { 'set-cookie': await connectCookie(env).serialize(state) } })
}

type CallbackOutcome = { ok: true } | { ok: false; message: string }

/**
 * GET /api/channels/callback/{platform}: the platform's answer. Always ends
 * in a redirect with a toast, and always clears the cookie.
 */
export async function finishChannelConnect(request: Request, context: Ctx, platform: string) {
	const { env, db } = context.get(servicesContext)
	const cookie = connectCookie(env)
	const clear = { 'set-cookie': await cookie.serialize('', { maxAge: 0 }) }
	const parsed = ConnectState.safeParse(await cookie.parse(request.headers.get('cookie')).catch(() => null))
	const saved = parsed.success && parsed.data.platform === platform && Date.now() - parsed.data.issuedAt < CONNECT_SECONDS * 1000 ? parsed.data : null
	const { t } = getInstance(context)

	if (!saved) {
		// No flow of this browser is waiting for this answer (expired, replayed,
		// started elsewhere, or a forged link): nothing is linked.
		requireViewer(request, context)
		const language = getInstance(context).language
		const home = isLocale(language) ? language : DEFAULT_LOCALE
		return redirectWithError(`/${home}/settings/channels`, t('errors.error-channel-connect-failed'), { headers: clear })
	}
	const viewer = requireViewer(request, context)
	const back = safeRedirectPath(saved.back, `/${saved.lang}/settings/channels`)
	const fixedT = getInstance(context).getFixedT(saved.lang)
	const outcome = await (async (): Promise<CallbackOutcome> => {
		if (viewer.userId !== saved.userId) return { ok: false, message: fixedT('errors.error-channel-connect-failed') }
		const provider = channelProviders(env)[saved.platform]
		if (!provider) return { ok: false, message: fixedT('errors.error-channel-connect-unavailable') }
		try {
			const proved = await provedChannel(provider, new URL(request.url), saved, callbackUrl(env, saved.platform))
			if (!proved) return { ok: false, message: fixedT('errors.error-no-channel-found', { platform: fixedT(`platforms.${saved.platform}`) }) }
			await db.query('select app_private.record_channel_identity($1, $2, $3, $4)', [
				viewer.userId,
				saved.platform,
				proved.platformUserId,
				proved.channel,
			])
			await queryAsViewer(context, (tx) => tx.query('select public.link_channel($1)', [saved.platform]))
			return { ok: true }
		} catch (error) {
			if (error instanceof oauth.AuthorizationResponseError) {
				// The person said no on the platform's page (access_denied), or the platform refused the request.
				if (error.error !== 'access_denied') console.warn(`channels: ${saved.platform} answered ${error.error}`)
				return { ok: false, message: fixedT('channels.connect-cancelled') }
			}
			const appError = toAppError(error)
			if (appError) return { ok: false, message: translateError(fixedT, appError.code, saved.lang) }
			// A forged or stale answer (state, code) is an expected refusal: one line. Anything else in full.
			if (error instanceof ChannelApiError || error instanceof oauth.OperationProcessingError || error instanceof oauth.ResponseBodyError) {
				console.warn(`channels: connecting ${saved.platform} failed: ${error.message}`)
			} else console.error(`channels: connecting ${saved.platform} failed`, error)
			return { ok: false, message: fixedT('errors.error-channel-connect-failed') }
		}
	})()
	return outcome.ok
		? redirectWithSuccess(back, fixedT('channels.connected', { platform: fixedT(`platforms.${saved.platform}`) }), { headers: clear })
		: redirectWithError(back, outcome.message, { headers: clear })
}

/** Checks the answer against the saved state, redeems the code (PKCE), and asks the platform for the channel. */
async function provedChannel(provider: ChannelProvider, url: URL, saved: ConnectState, redirectUri: string) {
	const as = authorizationServer(provider)
	const client: oauth.Client = { client_id: provider.clientId }
	// One redirect URI per platform already tells the answers apart (the
	// mix-up attack RFC 9207's `iss` guards against needs two providers on one
	// callback), and the platforms do not document the issuer they would send.
	url.searchParams.delete('iss')
	const params = oauth.validateAuthResponse(as, client, url.searchParams, saved.state)
	const options = { [oauth.allowInsecureRequests]: insecure(provider), signal: AbortSignal.timeout(10_000) }
	const response = await oauth.authorizationCodeGrantRequest(
		as,
		client,
		oauth.ClientSecretPost(provider.clientSecret),
		params,
		redirectUri,
		saved.verifier,
		options,
	)
	const tokens = await oauth.processAuthorizationCodeResponse(as, client, response)
	return provider.fetchChannel(tokens.access_token)
}
