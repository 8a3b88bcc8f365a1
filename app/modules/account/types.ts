import type { JwtClaims } from '#app/db/as-user.server'
import type { Locale } from '#app/i18n/locales'

/**
 * The account contract: who is asking (`AuthAdapter`, its `Viewer`) and
 * everything around an account (`AccountService`, its results and refusals).
 * Each platform's backend (backends/better-auth, backends/supabase) fulfils
 * it, and the platform hands it to routes (app/platform/types.ts, `Platform`;
 * docs/decisions/003-two-platforms-one-data-path.md). Routes see these, never
 * a backend's internals.
 */

/** Who is making the request, as the database should see them. */
export interface Viewer {
	claims: JwtClaims
	userId: string
	email: string | null
	/**
	 * A verified authenticator-app factor exists (aal2 is next, docs/product.md
	 * §2.8). Absent where the adapter cannot tell cheaply; then aal2 stands for it.
	 */
	totpEnabled?: boolean
	/**
	 * Supabase only: the user's verified access token, for the browser's
	 * realtime client (Supabase Realtime authorises joins with it).
	 */
	accessToken?: string
}

export interface AuthAdapter {
	/**
	 * Resolve the request's viewer. `headers` carries cookies to set on the
	 * response (a refreshed session, for example); they must be sent even when
	 * the route fails.
	 */
	getViewer(request: Request): Promise<{ viewer: Viewer | null; headers: Headers }>
	/**
	 * The topics of the realtime marks read since the last call, for an
	 * adapter that keeps sessions in memory and must forget revoked ones
	 * (Better Auth: backends/better-auth/session-cache.server.ts). `readAt`: when
	 * that read of the marks began, when the reader tells.
	 */
	observe?(topics: string[], readAt?: number): void
}

/**
 * Why an account operation was refused. `code` is shown through the
 * translation key errors.<code> (docs/product.md §12.1); `status` is the HTTP status
 * a route should answer with; `reasons` carries details the message needs
 * (the seconds left for error-rate-limited, what a weak password lacks).
 */
export type AuthErrorCode =
	| 'error-invalid-credentials'
	| 'error-email-not-confirmed'
	| 'error-weak-password'
	| 'error-invalid-email'
	| 'error-rate-limited'
	| 'error-identity-already-exists'
	| 'error-identity-not-found'
	| 'error-session-not-found'
	| 'error-connection'
	| 'error-invalid-token'
	| 'error-invalid-totp'
	| 'error-not-authenticated'
	| 'error-single-identity-not-deletable'
	| 'error-wrong-password'
	| 'error-reauthentication-required'
	| 'error-provider-not-configured'
	| 'error-unknown'

export interface AuthFailure {
	code: AuthErrorCode
	status: number
	reasons?: string[]
}

export type OAuthProvider = 'google' | 'twitch'

/** One way to sign in: the password (`email`) or a provider; `detail` is the address or the provider's user name where known. */
export interface SignInMethod {
	provider: 'email' | OAuthProvider
	detail: string | null
}

/** `headers`: Set-Cookie and the like, to put on the response whatever the outcome. */
export type AuthResult<T = null> = ({ ok: true; data: T } | { ok: false; error: AuthFailure }) & { headers: Headers }

/**
 * Sign-up, sign-in and everything around an account, as route actions use
 * it. The caller has already checked that a state-changing request is a
 * same-origin POST; methods read only cookies (and, where the deployment
 * trusts proxies, X-Forwarded-For) from `request`.
 */
export interface AccountService {
	/** Answers the same whether or not the address already has an account. */
	signUp(request: Request, input: { email: string; password: string; locale: Locale; redirectTo: string }): Promise<AuthResult>
	/** Answers the same whether or not the address has an unconfirmed account; 60-second cooldown per address. */
	resendConfirmation(request: Request, input: { email: string; locale: Locale; redirectTo: string }): Promise<AuthResult>
	/**
	 * Reads the confirmation link's query (token, redirect-to) and signs the
	 * user in. Routes call it from a POST only (the link's GET shows a button),
	 * so a mail scanner's prefetch or a cross-site link consumes nothing; a
	 * provider's return (OAuth state and PKCE protect it) may come as a GET.
	 */
	confirmEmail(request: Request): Promise<AuthResult<{ redirectTo: string; signedIn: boolean }>>
	signIn(request: Request, input: { email: string; password: string }): Promise<AuthResult<{ totpRequired: boolean }>>
	/** A 6-digit TOTP or a recovery code; completes a sign-in that needed it. */
	verifySignInTotp(request: Request, input: { code: string }): Promise<AuthResult>
	signOut(request: Request): Promise<AuthResult>
	/** Answers the same whether or not the address has an account. */
	requestPasswordReset(request: Request, input: { email: string; locale: Locale; redirectTo: string }): Promise<AuthResult>
	resetPassword(request: Request, input: { token: string; password: string }): Promise<AuthResult>
	startOAuth(request: Request, input: { provider: 'google' | 'twitch'; redirectTo: string }): Promise<AuthResult<{ url: string }>>
	enrollTotp(request: Request, input: { password: string }): Promise<AuthResult<{ uri: string; secret: string; recoveryCodes: string[] }>>
	confirmTotpEnrollment(request: Request, input: { code: string }): Promise<AuthResult>
	disableTotp(request: Request, input: { password: string }): Promise<AuthResult>
	/**
	 * Proof first: the password; for a two-factor account a current code
	 * instead; for an account without either (providers only) a sign-in
	 * within the last few minutes (error-reauthentication-required). The
	 * database forfeits what is left in the wallet (docs/decisions/020).
	 */
	deleteAccount(request: Request, input: { password?: string; code?: string }): Promise<AuthResult>
	/** The signed-in user's ways to sign in, and the providers they could still connect (configured, not yet linked). */
	listSignInMethods(request: Request): Promise<AuthResult<{ methods: SignInMethod[]; connectable: OAuthProvider[] }>>
	/** Starts connecting a provider to the signed-in account; it comes back to `/{locale}/settings?link={provider}`. */
	linkProvider(request: Request, input: { provider: OAuthProvider; locale: Locale }): Promise<AuthResult<{ url: string }>>
	/** Reads that return (a code to exchange, or the provider's or platform's error) and says which provider it was. */
	finishLink(request: Request): Promise<AuthResult<{ provider: OAuthProvider }>>
	/** Disconnects a provider; refused (error-single-identity-not-deletable) when it is the only way left to sign in. */
	unlinkProvider(request: Request, input: { provider: OAuthProvider }): Promise<AuthResult>
	/** The providers this deployment has configured: the only ones the pages offer. */
	readonly oauthProviders: readonly OAuthProvider[]
	/** Provider-owned HTTP endpoints (OAuth callbacks) under /api/auth/provider/*: a Response, or null when the path is not theirs. */
	handle(request: Request): Promise<Response | null>
}
