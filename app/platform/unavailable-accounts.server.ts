import type { AccountService, AuthResult } from './types'

/**
 * An AccountService that refuses everything with `error-unknown` and the
 * given status: for a platform whose account backend does not exist yet, or
 * a deployment where it cannot run safely. Routes then show the unknown-error
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
