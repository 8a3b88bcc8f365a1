import { useTranslation } from '#app/i18n/translation'
import { Form } from 'react-router'
import { z } from '#app/utils/zod'
import { SubmitButton } from '#app/components/forms'
import type { OAuthProvider, SignInMethod } from '#app/modules/account/types'

/** Brand names, the same in every language. */
export const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: 'Google', twitch: 'Twitch' }

export const LINK_INTENT = 'link'
export const UNLINK_INTENT = 'unlink'
export const ProviderFormSchema = z.object({ provider: z.enum(['google', 'twitch']) })

/** The ways to sign in, each with its disconnect button, then the ones to connect. */
export function SignInMethodsSection({ methods, connectable }: { methods: SignInMethod[]; connectable: readonly OAuthProvider[] }) {
	const { t } = useTranslation()
	return (
		<section className="card settings__section" aria-labelledby="settings-methods">
			<h2 id="settings-methods">{t('settings.methods-title')}</h2>
			<ul className="sign-in-methods">
				{methods.map((method) => (
					<li key={method.provider}>
						<span>
							<strong>{method.provider === 'email' ? t('settings.method-email') : PROVIDER_NAMES[method.provider]}</strong>
							{method.detail ? <span className="sign-in-methods__detail"> {method.detail}</span> : null}
						</span>
						{method.provider !== 'email' && methods.length > 1 ? (
							<Form method="post">
								<input type="hidden" name="provider" value={method.provider} />
								<SubmitButton intent={UNLINK_INTENT} className="button">
									{t('settings.method-disconnect', { provider: PROVIDER_NAMES[method.provider] })}
								</SubmitButton>
							</Form>
						) : null}
					</li>
				))}
			</ul>
			{methods.length === 1 && methods[0]?.provider !== 'email' ? <p className="field__hint">{t('settings.method-only-one')}</p> : null}
			{connectable.length > 0 ? (
				<div className="actions">
					{connectable.map((provider) => (
						<Form method="post" key={provider}>
							<input type="hidden" name="provider" value={provider} />
							<SubmitButton intent={LINK_INTENT} className={`button button--${provider}`}>
								{t('settings.method-connect', { provider: PROVIDER_NAMES[provider] })}
							</SubmitButton>
						</Form>
					))}
				</div>
			) : null}
		</section>
	)
}
