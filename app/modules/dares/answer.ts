import type { ShouldRevalidateFunctionArgs } from 'react-router'

/**
 * The field the session page's script adds to a boost, a vote or a new
 * dare: answer with data (the toast, the viewer's own reading), not a
 * redirect. The page then reads nothing again: the answer and the live
 * updates bring every change (docs/decisions/045-live-update-format.md).
 */
export const RESPOND_FIELD = 'respond'

/** The loaders' shouldRevalidate after such a form: no; otherwise as React Router would. */
export function revalidateUnlessAnswered({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
	return formData?.get(RESPOND_FIELD) === 'data' ? false : defaultShouldRevalidate
}
