import { z } from 'zod'
import type { OAuthProvider, SignInMethod } from './types'

/**
 * The rules both account backends apply before they ask Better Auth or
 * Supabase anything (docs/product.md §7.1), in one place so that the two
 * platforms cannot drift apart.
 */

/** Inputs (e-mail, password) at most 100 characters. */
export const MAX_INPUT_LENGTH = 100
/** Passwords 6 to 100 characters. */
export const MIN_PASSWORD_LENGTH = 6
/** An authenticator app's code; anything else on the code step is a recovery code. */
export const TOTP_CODE = /^\d{6}$/
/** The default OAuth providers (docs/product.md §10.2), in the order they are listed. */
export const OAUTH_PROVIDERS = ['google', 'twitch'] as const satisfies readonly OAuthProvider[]

export const isOAuthProvider = (value: unknown): value is OAuthProvider => value === 'google' || value === 'twitch'

/** Sign-in methods as the settings list them: the password first, then the providers in OAUTH_PROVIDERS order. */
export function inSignInOrder(methods: SignInMethod[]): SignInMethod[] {
	const order: readonly SignInMethod['provider'][] = ['email', ...OAUTH_PROVIDERS]
	return methods.sort((a, b) => order.indexOf(a.provider) - order.indexOf(b.provider))
}

/** Addresses compare trimmed and lower-cased: one account, and one rate-limit counter, per address. */
export function normaliseEmail(email: string): string {
	return email.trim().toLowerCase()
}

/** A normalised address the backends accept: well formed and within the input limit. */
export function isAcceptableEmail(email: string): boolean {
	return email.length <= MAX_INPUT_LENGTH && z.email().safeParse(email).success
}

/** Whether a new password is within 6 to 100 characters (docs/product.md §7.1). */
export function isAcceptablePassword(password: string): boolean {
	return password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_INPUT_LENGTH
}

/** A current password worth checking (sign-in, re-authentication): not empty, within the input limit. */
export function isPlausiblePassword(password: string): boolean {
	return password.length > 0 && password.length <= MAX_INPUT_LENGTH
}

