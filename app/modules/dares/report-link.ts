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

/** Only `?report=` differs between the two addresses: a report form opened or closed, the page's data the same. */
export function onlyReportParamChanged(current: URL, next: URL): boolean {
	if (current.pathname !== next.pathname) return false
	const [before, after] = [new URLSearchParams(current.search), new URLSearchParams(next.search)]
	if (before.get(REPORT_PARAM) === after.get(REPORT_PARAM)) return false
	for (const params of [before, after]) {
		params.delete(REPORT_PARAM)
		params.sort()
	}
	return before.toString() === after.toString()
}
