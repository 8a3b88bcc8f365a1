import type { AccountService, AuthAdapter } from '#app/modules/account/types'

/**
 * What differs between the two platforms for a request, put together as a
 * `Platform` (docs/decisions/003-two-platforms-one-data-path.md): who is
 * asking (`auth`) and accounts (`accounts`), which are the account module's
 * contract (app/modules/account/types.ts), and mail (`MailAdapter`). Routes
 * see these, never a platform's internals.
 */
export interface Platform {
	readonly name: 'local' | 'supabase'
	readonly auth: AuthAdapter
	readonly mail: MailAdapter
	readonly accounts: AccountService
}

export interface Mail {
	to: string
	subject: string
	text: string
	html: string
	/** What the mail is for (confirmation, reset, ...): shown in the development mailbox. */
	kind: string
}

export interface MailAdapter {
	readonly transport: 'smtp' | 'dev-mailbox' | 'supabase'
	send(mail: Mail): Promise<void>
}
