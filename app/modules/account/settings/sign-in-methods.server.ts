import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { translateError } from '#app/i18n/errors'
import { servicesContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { LINK_INTENT, PROVIDER_NAMES, ProviderFormSchema } from './sign-in-methods'

/** Connects (through the provider's consent page) or disconnects a provider; the answer is a toast on the settings. */
export async function changeSignInMethod(
	request: Request,
	formData: FormData,
	context: Readonly<RouterContextProvider>,
	{ here, locale, intent }: { here: string; locale: Locale; intent: string },
) {
	const { accounts } = context.get(servicesContext).platform
	const { t } = getInstance(context)
	const submission = parseWithZod(formData, { schema: ProviderFormSchema })
	// The buttons only ever send a configured provider: anything else is not a form a person filled in.
	if (submission.status !== 'success') throw data(null, { status: 400 })
	const { provider } = submission.value
	if (intent === LINK_INTENT) {
		const result = await accounts.linkProvider(request, { provider, locale })
		if (!result.ok) return redirectWithError(here, translateError(t, result.error.code), { headers: result.headers })
		return redirect(result.data.url, { headers: result.headers })
	}
	const result = await accounts.unlinkProvider(request, { provider })
	if (!result.ok) return redirectWithError(here, translateError(t, result.error.code), { headers: result.headers })
	return redirectWithSuccess(here, t('settings.method-disconnected', { provider: PROVIDER_NAMES[provider] }), { headers: result.headers })
}
