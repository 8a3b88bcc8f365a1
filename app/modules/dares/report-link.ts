/**
 * The search parameter that opens one dare's report form on the session page
 * (`?report={dare id}`, back at the dare): where the "Report" link goes
 * without JavaScript, and where a report refused without JavaScript goes
 * back to, so its form is open again under the error's toast.
 */
export const REPORT_PARAM = 'report'

/** `path` with this dare's report form open. */
export function reportFormHref(dareId: string, path = ''): string {
	const id = encodeURIComponent(dareId)
	return `${path}?${REPORT_PARAM}=${id}#dare-${id}`
}
