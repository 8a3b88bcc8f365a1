import { randomBytes } from 'node:crypto'
import type { Env } from '#app/env.server'

/**
 * The one place that says what a page may load, frame, connect to and post
 * to, and the other response headers every answer carries. A feature that
 * needs a third party adds it to a named list here (never a second header
 * somewhere else); docs/decisions/014-security-headers.md explains each choice.
 */

/** 128 random bits, fresh for every request: scripts without it do not run. */
export function createNonce(): string {
	return randomBytes(16).toString('base64')
}

/**
 * The stream players a session page embeds (embedUrl in
 * app/modules/sessions/session-page.tsx), and each platform's other embed
 * host. Allowed as frames only, never as scripts.
 */
export const STREAM_PLAYER_ORIGINS = [
	'https://player.twitch.tv',
	'https://embed.twitch.tv',
	'https://www.youtube-nocookie.com',
	'https://www.youtube.com',
	'https://player.kick.com',
] as const

/**
 * Where the sign-in buttons' form posts may be redirected: Chromium applies
 * `form-action` to every redirect that follows a form submission, and the
 * OAuth flows answer the POST with a redirect to the provider's
 * authorisation page (on Supabase: first to the project's /auth/v1/authorize,
 * then to the provider).
 */
const OAUTH_PROVIDER_ORIGINS = ['https://accounts.google.com', 'https://id.twitch.tv'] as const

type PolicyEnv = Pick<
	Env,
	| 'APP_URL'
	| 'PLATFORM'
	| 'SUPABASE_URL'
	| 'GOOGLE_ISSUER'
	| 'TWITCH_ISSUER'
	| 'GOOGLE_CLIENT_ID'
	| 'TWITCH_CLIENT_ID'
	| 'NODE_ENV'
	| 'YOUTUBE_CLIENT_ID'
	| 'YOUTUBE_AUTH_URL'
	| 'KICK_CLIENT_ID'
	| 'KICK_AUTH_URL'
>

function originOf(url: string | undefined): string | undefined {
	if (!url) return undefined
	try {
		return new URL(url).origin
	} catch {
		return undefined
	}
}

/** The Content-Security-Policy for a response whose scripts carry `nonce`. */
export function contentSecurityPolicy(env: PolicyEnv, nonce: string): string {
	const app = new URL(env.APP_URL)
	const https = app.protocol === 'https:'
	// The realtime relay's WebSocket lives on the same origin; 'self' does not
	// cover ws(s): in every browser yet, so it is named.
	const sameOriginSocket = `${https ? 'wss' : 'ws'}://${app.host}`
	const supabase = env.PLATFORM === 'supabase' ? originOf(env.SUPABASE_URL) : undefined
	// Supabase's REST, Auth and Realtime (wss) endpoints, when the browser talks to the project.
	const supabaseConnect = supabase ? [supabase, supabase.replace(/^http/, 'ws')] : []
	const oauthTargets = new Set<string>()
	if (env.PLATFORM === 'supabase') {
		if (supabase) oauthTargets.add(supabase)
		for (const origin of OAUTH_PROVIDER_ORIGINS) oauthTargets.add(origin)
	} else {
		if (env.GOOGLE_CLIENT_ID) oauthTargets.add(originOf(env.GOOGLE_ISSUER) ?? 'https://accounts.google.com')
		if (env.TWITCH_CLIENT_ID) oauthTargets.add(originOf(env.TWITCH_ISSUER) ?? 'https://id.twitch.tv')
	}
	// "Connect my YouTube/Kick channel" (both platforms; ADR 037) is answered with a redirect to the platform's consent page.
	if (env.YOUTUBE_CLIENT_ID) oauthTargets.add(originOf(env.YOUTUBE_AUTH_URL) ?? 'https://accounts.google.com')
	if (env.KICK_CLIENT_ID) oauthTargets.add(originOf(env.KICK_AUTH_URL) ?? 'https://id.kick.com')

	const directives: Record<string, string[]> = {
		'default-src': ["'self'"],
		// 'strict-dynamic': the nonce'd module scripts may load the route chunks
		// they import; no inline script runs without the nonce.
		'script-src': [`'nonce-${nonce}'`, "'strict-dynamic'"],
		// The pages' stylesheets are inline in their HTML (ADR 053), toasts
		// (sonner) insert theirs at run time and React writes style attributes;
		// styles cannot run code, so inline styles are allowed.
		'style-src': ["'self'", "'unsafe-inline'"],
		// data: for server-rendered images such as a two-factor QR code.
		'img-src': ["'self'", 'data:'],
		'font-src': ["'self'"],
		// Analytics go through our own relay (same origin), so 'self' covers them.
		'connect-src': ["'self'", sameOriginSocket, ...supabaseConnect],
		'frame-src': [...STREAM_PLAYER_ORIGINS],
		'media-src': ["'self'"],
		'manifest-src': ["'self'"],
		'worker-src': ["'self'"],
		'object-src': ["'none'"],
		'base-uri': ["'none'"],
		'form-action': ["'self'", ...oauthTargets],
		// Nobody may frame any page (settings: delete account, unlink, two-factor off).
		'frame-ancestors': ["'none'"],
	}
	const parts = Object.entries(directives).map(([name, values]) => `${name} ${values.join(' ')}`)
	if (https) parts.push('upgrade-insecure-requests')
	return parts.join('; ')
}

/**
 * Headers for every response (pages, data requests, assets, errors). The CSP
 * is included; in development it is report-only, so Vite's hot reload
 * (inline scripts without a nonce, its own WebSocket) keeps working while
 * violations still show in the console.
 */
export function securityHeaders(env: PolicyEnv, nonce: string): Record<string, string> {
	const headers: Record<string, string> = {
		[env.NODE_ENV === 'development' ? 'Content-Security-Policy-Report-Only' : 'Content-Security-Policy']:
			contentSecurityPolicy(env, nonce),
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'strict-origin-when-cross-origin',
		// Browsers without CSP frame-ancestors.
		'X-Frame-Options': 'DENY',
		'Cross-Origin-Opener-Policy': 'same-origin',
		'Cross-Origin-Resource-Policy': 'same-origin',
		// Nothing here needs these; the stream players get theirs through the
		// frame's allow attribute, which cannot exceed this list: autoplay and
		// fullscreen stay available to the frames the CSP allows.
		'Permissions-Policy': [
			'accelerometer=()',
			'camera=()',
			'geolocation=()',
			'gyroscope=()',
			'magnetometer=()',
			'microphone=()',
			'payment=()',
			'usb=()',
			`autoplay=(self ${STREAM_PLAYER_ORIGINS.map((o) => `"${o}"`).join(' ')})`,
			`fullscreen=(self ${STREAM_PLAYER_ORIGINS.map((o) => `"${o}"`).join(' ')})`,
		].join(', '),
	}
	if (new URL(env.APP_URL).protocol === 'https:') {
		// Two years; not preloaded (an operator's decision for the whole domain).
		headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains'
	}
	return headers
}
