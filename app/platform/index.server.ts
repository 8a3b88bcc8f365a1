import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { createDevMailbox } from '#app/mail/dev-mailbox.server'
import { createSmtpMailer } from '#app/mail/smtp.server'
import { createBetterAuthAccounts } from '#app/modules/account/backends/better-auth/index.server'
import { seedDemoSignIns } from '#app/modules/account/backends/better-auth/demo.server'
import type { MailAdapter, Platform } from './types'

/**
 * The platform named by PLATFORM: its accounts (the account module's backend
 * for it, app/modules/account/backends) and its mail. Supabase's modules load
 * only when chosen. (The realtime delivery of each platform is
 * app/modules/realtime's, ADR 035.)
 */
export async function createPlatform(env: Env, db: Database): Promise<Platform> {
	if (env.PLATFORM === 'supabase') {
		// Supabase Auth, the project's Postgres through DATABASE_URL.
		const { createSupabaseAccounts } = await import('#app/modules/account/backends/supabase/index.server')
		const { accounts, auth } = await createSupabaseAccounts(env, db)
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
		return { name: 'supabase', auth, mail, accounts }
	}
	// The demo accounts get a password to sign in with, only where demo data is on.
	if (env.DEMO_DATA) await seedDemoSignIns(db)
	// Local: PGlite or a Postgres server, Better Auth for accounts, mail through
	// SMTP or the development mailbox.
	const mail: MailAdapter = env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM) : createDevMailbox(db)
	const { accounts, auth } = createBetterAuthAccounts(env, db, mail)
	return { name: 'local', auth, accounts, mail }
}
