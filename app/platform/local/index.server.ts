import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { createDevMailbox } from '#app/mail/dev-mailbox.server'
import { createSmtpMailer } from '#app/mail/smtp.server'
import type { AuthAdapter, Platform } from '#app/platform/types'

/**
 * Platform `local`: PGlite or a Postgres server, the app's own auth and
 * realtime relay. Accounts (Better Auth) are the Accounts issue's work: until
 * then every request is a visitor, which is what this adapter answers, and
 * nothing in the product offers a sign-in yet.
 */
export function createLocalPlatform(env: Env, db: Database): Platform {
	const auth: AuthAdapter = {
		async getViewer() {
			return { viewer: null, headers: new Headers() }
		},
	}
	return {
		name: 'local',
		auth,
		mail: env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM) : createDevMailbox(db),
		realtime: {
			// The relay listens on the app's own port (same origin); see ARCHITECTURE.md.
			clientConfig: (origin) => ({ url: `${origin}/realtime/v1`, apiKey: 'local' }),
		},
	}
}
