/** Pages on which the username and terms dialogs are not forced (spec section 2). */
const HIDE_AUTH_DIALOGS = ['terms', 'privacy', 'imprint', 'creator-agreement', 'confirm', 'password-reset', 'login', 'register']

export function hidesAuthDialogs(pathname: string): boolean {
	const page = pathname.split('/')[2] ?? ''
	return HIDE_AUTH_DIALOGS.includes(page)
}
