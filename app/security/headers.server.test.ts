import { expect, test } from 'vitest'
import { parseEnv } from '#app/env.server'
import { contentSecurityPolicy, securityHeaders, STREAM_PLAYER_ORIGINS } from './headers.server'
import { OPERATOR } from '#tests/support/env'

function directives(policy: string): Map<string, string[]> {
	return new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]))
}

test('scripts run only with the nonce: no unsafe-inline, no unsafe-eval, no host allow-list', () => {
	const csp = directives(contentSecurityPolicy(parseEnv({}), 'abc'))
	expect(csp.get('script-src')).toEqual(["'nonce-abc'", "'strict-dynamic'"])
	expect(csp.get('object-src')).toEqual(["'none'"])
	expect(csp.get('base-uri')).toEqual(["'none'"])
	expect(csp.get('frame-ancestors')).toEqual(["'none'"])
	expect(csp.get('form-action')).toEqual(["'self'"])
})

test('the realtime socket, the stream players and the Supabase project have their named places', () => {
	const local = directives(contentSecurityPolicy(parseEnv({ ...OPERATOR, APP_URL: 'https://dares.example' }), 'n'))
	expect(local.get('connect-src')).toEqual(["'self'", 'wss://dares.example'])
	expect(local.get('frame-src')).toEqual([...STREAM_PLAYER_ORIGINS])
	const supabase = directives(
		contentSecurityPolicy(
			parseEnv({ PLATFORM: 'supabase', SUPABASE_URL: 'https://ref.supabase.co', SUPABASE_ANON_KEY: 'k', DATABASE_URL: 'postgres://u@h/db' }),
			'n',
		),
	)
	expect(supabase.get('connect-src')).toEqual(["'self'", 'ws://localhost:3000', 'https://ref.supabase.co', 'wss://ref.supabase.co'])
	expect(supabase.get('form-action')).toEqual(["'self'", 'https://ref.supabase.co', 'https://accounts.google.com', 'https://id.twitch.tv'])
})

test('sign-in buttons may hand over to the configured providers (form-action follows redirects)', () => {
	const csp = directives(
		contentSecurityPolicy(
			parseEnv({ GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 's', TWITCH_CLIENT_ID: 't', TWITCH_CLIENT_SECRET: 's', TWITCH_ISSUER: 'http://127.0.0.1:9999/twitch' }),
			'n',
		),
	)
	expect(csp.get('form-action')).toEqual(["'self'", 'https://accounts.google.com', 'http://127.0.0.1:9999'])
})

test('the channel buttons may hand over to YouTube and Kick when configured, on either platform', () => {
	const csp = directives(
		contentSecurityPolicy(
			parseEnv({ YOUTUBE_CLIENT_ID: 'y', YOUTUBE_CLIENT_SECRET: 's', KICK_CLIENT_ID: 'k', KICK_CLIENT_SECRET: 's', KICK_AUTH_URL: 'http://127.0.0.1:9998/oauth/authorize' }),
			'n',
		),
	)
	expect(csp.get('form-action')).toEqual(["'self'", 'https://accounts.google.com', 'http://127.0.0.1:9998'])
})

test('HSTS and upgrade-insecure-requests only on https; report-only in development', () => {
	expect(securityHeaders(parseEnv({ ...OPERATOR, APP_URL: 'https://dares.example' }), 'n')['Strict-Transport-Security']).toMatch(/max-age=63072000/)
	expect(contentSecurityPolicy(parseEnv({ ...OPERATOR, APP_URL: 'https://dares.example' }), 'n')).toContain('upgrade-insecure-requests')
	expect(securityHeaders(parseEnv({}), 'n')['Strict-Transport-Security']).toBeUndefined()
	expect(Object.keys(securityHeaders(parseEnv({ NODE_ENV: 'development' }), 'n'))).toContain('Content-Security-Policy-Report-Only')
	const headers = securityHeaders(parseEnv({}), 'n')
	expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin')
	expect(headers['Cross-Origin-Opener-Policy']).toBe('same-origin')
	expect(headers['Permissions-Policy']).toMatch(/camera=\(\)/)
})
