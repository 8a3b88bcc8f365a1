import type { ShouldRevalidateFunctionArgs } from 'react-router'

/**
 * The field the session page's script adds to a boost, a vote or a new
 * dare: answer with data (the toast, the viewer's own reading), not a
 * redirect. The page then reads nothing again: the answer and the live
 * updates bring every change (docs/decisions/045-live-update-format.md).
 */
export const RESPOND_FIELD = 'respond'

/**
 * The loaders' shouldRevalidate after such a form answered with data: no.
 * Answered with a redirect (to sign in, to the shop, to the account steps:
 * React Router passes the form along to the redirect's navigation, without
 * an action result), and after anything else: as React Router would.
 */
export function revalidateUnlessAnswered({ formData, actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
	return formData?.get(RESPOND_FIELD) === 'data' && actionResult !== undefined ? false : defaultShouldRevalidate
}
