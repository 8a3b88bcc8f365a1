import type { Locale } from '#app/i18n/locales'
import type { AuthFailure, OAuthProvider, SignInMethod, Viewer } from './types'

/**
 * What a platform's account system (Better Auth locally, Supabase Auth on
 * Supabase) does for AccountService (service.server.ts). The service has
 * already normalised and checked the input, counted the rate limits, checked
 * who is signed in and what they proved; a backend only talks to its system.
 * It throws that system's errors; `toFailure` names the ones it knows.
 *
 * `call.headers` collects the cookies (and the like) the response must
 * carry, whatever the outcome.
 */
export interface BackendCall {
	request: Request
	headers: Headers
	/** The client's address as the deployment's proxies report it; null when unknown. */
	ip: string | null
}

/** The signed-in user, as the rules need to see them. `native` is the backend's own record. */
export interface AccountUser<Native = unknown> {
	id: string
	email: string | null
	/** A verified authenticator-app factor exists. */
	totpEnabled: boolean
	/** What this session proved: aal2 after the second factor. */
	aal: 'aal1' | 'aal2'
	/** The account has a password (not only providers). */
	hasPassword: boolean
	/** When this session last proved a sign-in (password, provider, link), in ms. */
	signedInAt: number
	native: Native
}

export interface AccountBackend<Native = unknown> {
	/** Providers configured for this deployment. */
	readonly oauthProviders: readonly OAuthProvider[]
	/** Reads the provider settings again where they live outside the app (Supabase's project settings). */
	refreshProviders?(): Promise<void>
	getViewer(request: Request): Promise<{ viewer: Viewer | null; headers: Headers }>
	/** The request's signed-in user (also a session that still owes its second factor); null without one. */
	currentUser(call: BackendCall): Promise<AccountUser<Native> | null>
	/** An error of this backend's system as an AuthFailure; null when it is not one it knows. */
	toFailure(error: unknown): AuthFailure | null

	/**
	 * A new address: create the account and mail the link (returns true).
	 * An address that has an account: never touch its password; if it is
	 * still unconfirmed and `mayMail`, mail the link again; if `password` is
	 * not the one it was created with, make sure confirming it cannot make
	 * either password work (see ADR 011). Returns whether a mail went out.
	 */
	signUp(call: BackendCall, input: { email: string; password: string; locale: Locale; redirectTo: string; mayMail: boolean }): Promise<boolean>
	/** Mail the link again if the address has an unconfirmed account; nothing otherwise. */
	resendConfirmation(call: BackendCall, input: { email: string; locale: Locale; redirectTo: string }): Promise<void>
	/**
	 * Consume the link in the request's query; sign in only when
	 * `typedHere(address)` says this browser signed the address up (its
	 * password was typed here): a link opened elsewhere confirms the address
	 * and signs nobody in (docs/product.md §10, pre-registration). A provider's
	 * return always signs in.
	 */
	confirmEmail(call: BackendCall, input: { locale: Locale; redirectTo: string; typedHere: (address: string) => boolean }): Promise<{ redirectTo: string; signedIn: boolean }>
	signIn(call: BackendCall, input: { email: string; password: string }): Promise<{ totpRequired: boolean }>
	verifySignInTotp(call: BackendCall, input: { code: string }, user: AccountUser<Native> | null): Promise<void>
	signOut(call: BackendCall): Promise<void>
	requestPasswordReset(call: BackendCall, input: { email: string; locale: Locale }): Promise<void>
	resetPassword(call: BackendCall, input: { token: string; password: string }): Promise<void>
	startOAuth(call: BackendCall, input: { provider: OAuthProvider; locale: Locale; redirectTo: string }): Promise<{ url: string }>
	/** Whether `pathname` is one of the backend's own HTTP endpoints (OAuth callbacks). */
	ownsPath(pathname: string): boolean
	handle(request: Request): Promise<Response | null>

	/** Throws the backend's wrong-password error when `password` is not the user's. */
	checkPassword(call: BackendCall, user: AccountUser<Native>, password: string): Promise<void>
	/** Throws the backend's wrong-code error when `code` is not a current code of the user's factor. */
	checkTotp(call: BackendCall, user: AccountUser<Native>, code: string): Promise<void>
	enrollTotp(call: BackendCall, user: AccountUser<Native>, input: { password: string }): Promise<{ uri: string; secret: string; recoveryCodes: string[] }>
	confirmTotpEnrollment(call: BackendCall, user: AccountUser<Native>, input: { code: string }): Promise<void>
	disableTotp(call: BackendCall, user: AccountUser<Native>, input: { password: string }): Promise<void>
	/** Deletes the user; the database's `before delete` trigger on auth.users settles their sessions and forfeits their wallet. */
	deleteAccount(call: BackendCall, user: AccountUser<Native>): Promise<void>
	signInMethods(call: BackendCall, user: AccountUser<Native>): Promise<SignInMethod[]>
	linkProvider(call: BackendCall, user: AccountUser<Native>, input: { provider: OAuthProvider; locale: Locale }): Promise<{ url: string }>
	finishLink(call: BackendCall, input: { provider: OAuthProvider }): Promise<void>
	unlinkProvider(call: BackendCall, user: AccountUser<Native>, input: { provider: OAuthProvider }): Promise<void>
}

/** A refusal a backend throws for the service to answer with as it is. */
export class AccountRefusal extends Error {
	readonly failure: AuthFailure
	constructor(failure: AuthFailure) {
		super(failure.code)
		this.name = 'AccountRefusal'
		this.failure = failure
	}
}

export function refuse(code: AuthFailure['code'], status: number, reasons?: string[]): never {
	throw new AccountRefusal(reasons ? { code, status, reasons } : { code, status })
}
