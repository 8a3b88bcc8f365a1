/**
 * The username rule (docs/product.md §7.1) without Zod, for the account dialog's
 * live check in the browser: the dialog is on every page of an account
 * without a username, and Zod is not part of any page's first load (issue
 * 11's JavaScript budget). UsernameSchema (schemas.ts) is built from the same
 * constants; schemas.test.ts holds the two to the same answers.
 */
export const USERNAME_MAX = 30
export const USERNAME_PATTERN = /^[a-z0-9._]+$/

export type UsernameCheck = { ok: true; username: string } | { ok: false; error: 'validation.username-required' | 'validation.username-too-long' | 'validation.username-invalid' }

/** The username as it is stored (trimmed, lower case), or the first rule it breaks, in UsernameSchema's order. */
export function checkUsername(value: string): UsernameCheck {
	const username = value.trim().toLowerCase()
	if (username.length < 1) return { ok: false, error: 'validation.username-required' }
	if (username.length > USERNAME_MAX) return { ok: false, error: 'validation.username-too-long' }
	if (!USERNAME_PATTERN.test(username)) return { ok: false, error: 'validation.username-invalid' }
	return { ok: true, username }
}
