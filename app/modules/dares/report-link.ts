/**
 * The search parameter that opens one dare's report form on the session page
 * (`?report={dare id}`, back at the dare): where the "Report" link goes
 * without JavaScript, and where a refused report goes back to, so the form
 * is open again beside its error (docs/decisions/055-hot-dare.md).
 */
export const REPORT_PARAM = 'report'

/** `path` with this dare's report form open. */
export function reportFormHref(dareId: string, path = ''): string {
	const id = encodeURIComponent(dareId)
	return `${path}?${REPORT_PARAM}=${id}#dare-${id}`
}
