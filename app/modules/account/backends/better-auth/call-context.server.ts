import { AsyncLocalStorage } from 'node:async_hooks'
import type { Locale } from '#app/i18n/locales'

/**
 * What one AccountService call knows that Better Auth's callbacks do not:
 * Better Auth hands `sendVerificationEmail` and `sendResetPassword` only the
 * user, a URL and a token, and its account hooks only the account row. The
 * service runs each Better Auth call inside this context so those callbacks
 * can write the link in the right language, back to the right page, and so
 * an OAuth callback can carry the Twitch login from the provider's profile to
 * the account row it creates.
 *
 * AsyncLocalStorage, not a shared variable: concurrent requests each see
 * their own context.
 */
export interface CallContext {
	/** The language of the page the request came from (mails and their links). */
	locale?: Locale
	/** The same-origin path the confirmation link returns to (`redirect-to`). */
	redirectTo?: string
	/** Filled by the Twitch profile fetch during an OAuth callback. */
	twitchProfile?: TwitchProfile
}

export interface TwitchProfile {
	/** Twitch's stable user id: also the Better Auth account's accountId. */
	id: string
	/** The channel name (lower case, used in twitch.tv/<login>); can change when the user renames. */
	login: string
	displayName: string
}

const storage = new AsyncLocalStorage<CallContext>()

export function runInCallContext<T>(context: CallContext, fn: () => Promise<T>): Promise<T> {
	return storage.run(context, fn)
}

export function currentCallContext(): CallContext | undefined {
	return storage.getStore()
}
