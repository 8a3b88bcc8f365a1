import type { AccountService, AuthResult } from './types'

/**
 * An AccountService that refuses everything with `error-unknown` and the
 * given status: for a deployment where accounts cannot run safely (the local
 * platform in production without BETTER_AUTH_SECRET). Routes then show the unknown-error
 * text instead of crashing, and no provider endpoint is served.
 */
export function unavailableAccountService(status: number, reasons?: string[]): AccountService {
	const refuse = async <T>(): Promise<AuthResult<T>> => ({
		ok: false,
		error: reasons ? { code: 'error-unknown', status, reasons } : { code: 'error-unknown', status },
		headers: new Headers({ 'cache-control': 'no-store' }),
	})
	return {
		signUp: refuse,
		resendConfirmation: refuse,
		confirmEmail: refuse,
		signIn: refuse,
		verifySignInTotp: refuse,
		signOut: refuse,
		requestPasswordReset: refuse,
		resetPassword: refuse,
		startOAuth: refuse,
		enrollTotp: refuse,
		confirmTotpEnrollment: refuse,
		disableTotp: refuse,
		deleteAccount: refuse,
		listSignInMethods: refuse,
		linkProvider: refuse,
		finishLink: refuse,
		unlinkProvider: refuse,
		oauthProviders: [],
		handle: async () => null,
	}
}
