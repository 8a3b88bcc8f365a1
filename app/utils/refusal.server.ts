/**
 * The HTTP status of an expected refusal that the form's own page shows in
 * place: a wrong password or code, input the form's rules refuse, a rule of
 * the database (docs/product.md §12.4). A form the browser posts itself (no
 * JavaScript, or before the page's script runs) gets `status`, which says
 * what happened. The page's script (React Router fetching the action's
 * `.data`, which browsers mark `Sec-Fetch-Dest: empty`) gets 200 with the
 * same payload, read the same way: Chromium logs every non-2xx answer to a
 * fetch as a console error ("Failed to load resource"), and a refusal the
 * page shows is not an error of the page. Only 4xx become 200: a server's
 * failure stays one. React Router revalidates the page's loaders after a
 * 2xx action, so the page is read afresh after such a refusal. Clients that
 * send no Sec-Fetch headers (older browsers, scripts, the request-level
 * tests) get `status`.
 */
export function refusalStatus(request: Request, status: number): number {
	return status >= 400 && status < 500 && request.headers.get('sec-fetch-dest') === 'empty' ? 200 : status
}
