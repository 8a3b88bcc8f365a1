import type { ShouldRevalidateFunctionArgs } from 'react-router'
import { onlyReportParamChanged } from './report-link'

/**
 * The field the session page's script adds to a boost, a vote or a new
 * dare: answer with data (the toast, the viewer's own reading), not a
 * redirect. The page then reads nothing again: the answer and the live
 * updates bring every change (docs/decisions/045-live-update-format.md).
 */
export const RESPOND_FIELD = 'respond'

/**
 * The session page's loaders' shouldRevalidate. After such a form answered
 * with data: no. Answered with a redirect (to sign in, to the shop, to the
 * account steps: React Router passes the form along to the redirect's
 * navigation, without an action result): as React Router would. A
 * navigation that only drops or adds `?report=` (a report form closed in
 * place): no, nothing the page shows changed. Anything else: as React Router
 * would.
 */
export function revalidateUnlessAnswered({ formData, formMethod, actionResult, currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
	if (formData?.get(RESPOND_FIELD) === 'data' && actionResult !== undefined) return false
	if (!formMethod && onlyReportParamChanged(currentUrl, nextUrl)) return false
	return defaultShouldRevalidate
}
