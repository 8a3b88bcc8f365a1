import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr'
import type { JwtClaims } from '#app/db/as-user.server'
import type { Env } from '#app/env.server'
import { createSmtpMailer } from '#app/mail/smtp.server'
import type { AuthAdapter, MailAdapter, Platform } from '#app/platform/types'
import { unavailableAccountService } from '#app/platform/unavailable-accounts.server'

/** Cookie settings of the spec (section 9): 400 days, path /, SameSite lax. */
export const SUPABASE_COOKIE_OPTIONS = {
	path: '/',
	sameSite: 'lax',
	maxAge: 400 * 24 * 60 * 60,
	httpOnly: true,
} as const

export function createSupabaseServerClient(env: Env, request: Request, headers: Headers) {
	if (!env.SUPABASE_URL || !env.SUPABASE_ANON_KEY) throw new Error('SUPABASE_URL and SUPABASE_ANON_KEY are required')
	return createServerClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
		cookieOptions: { ...SUPABASE_COOKIE_OPTIONS, secure: env.isProduction && env.APP_URL.startsWith('https:') },
		cookies: {
			getAll: () =>
				parseCookieHeader(request.headers.get('cookie') ?? '').map(({ name, value }) => ({ name, value: value ?? '' })),
			setAll: (cookies) => {
				for (const { name, value, options } of cookies) headers.append('set-cookie', serializeCookieHeader(name, value, options))
			},
		},
	})
}

/**
 * Platform `supabase`: Supabase Auth through @supabase/ssr, the project's
 * Postgres through DATABASE_URL (queries still run as the user, with the
 * claims Supabase verified), Supabase Realtime for delivery.
 */
export function createSupabasePlatform(env: Env): Platform {
	const auth: AuthAdapter = {
		async getViewer(request) {
			const headers = new Headers()
			const supabase = createSupabaseServerClient(env, request, headers)
			// getClaims verifies the access token (JWKS or the Auth server), unlike getSession.
			const { data, error } = await supabase.auth.getClaims()
			if (error || !data?.claims?.sub) return { viewer: null, headers }
			const c = data.claims
			const claims: JwtClaims = {
				...c,
				sub: c.sub,
				role: 'authenticated',
				email: typeof c.email === 'string' ? c.email : undefined,
				aal: c.aal === 'aal2' ? 'aal2' : 'aal1',
				session_id: typeof c.session_id === 'string' ? c.session_id : undefined,
			}
			return { viewer: { claims, userId: c.sub, email: claims.email ?? null }, headers }
		},
	}
	// Supabase sends its own auth mails (supabase/templates); the app's other
	// mails go through SMTP when configured.
	const mail: MailAdapter = env.SMTP_URL
		? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM)
		: {
				transport: 'supabase',
				async send(m) {
					throw new Error(`No SMTP_URL configured: cannot send "${m.kind}" mail on the supabase platform`)
				},
			}
	return {
		name: 'supabase',
		auth,
		mail,
		// The Supabase adapter of AccountService (sign-up, sign-in, OAuth, TOTP
		// and deletion through Supabase Auth and @supabase/ssr) is separate work
		// of the Accounts issue. Until it lands every account operation answers
		// error-unknown with 501 Not Implemented, so routes fail visibly and
		// predictably instead of pretending to succeed.
		accounts: unavailableAccountService(501),
		realtime: {
			clientConfig: () => ({ url: env.SUPABASE_URL ?? '', apiKey: env.SUPABASE_ANON_KEY ?? '' }),
		},
	}
}
