import { useTranslation } from '#app/i18n/translation'
import { Form } from 'react-router'
import { useRootData } from '#app/root-data'
import { formatCoins } from '#app/modules/shop/format'
import { SubmitButton } from '#app/components/forms'

/** The id of the account dialog's delete-account disclosure, which toasts point to. */
export const GATE_DELETE_ACCOUNT_ID = 'gate-delete-account'

/** Opens a delete-account disclosure and brings it into view. */
export function openDeleteAccount(id: string) {
	const details = document.getElementById(id)
	if (!(details instanceof HTMLDetailsElement)) return
	details.open = true
	details.scrollIntoView({ block: 'nearest' })
	details.querySelector('summary')?.focus()
}

/**
 * The delete-account confirmation (docs/product.md §10.10: cancel / delete), a
 * disclosure that works without JavaScript. It asks for proof that the
 * person at the keyboard owns the account: the authenticator app's code for
 * a two-factor account, else the password (an account that signs in only
 * through Google or Twitch leaves it empty and must have signed in within the
 * last few minutes). "Cancel" goes back to `back`; a refusal comes back there
 * as a toast.
 */
export function DeleteAccount({ back, id }: { back: string; id?: string }) {
	const { t, i18n } = useTranslation()
	const account = useRootData()?.account
	const totp = account?.totp === true
	const balance = account?.balance ?? 0
	const fieldId = `${id ?? 'delete-account'}-proof`
	return (
		<details className="delete-account" id={id}>
			<summary>{t('account.delete-account')}</summary>
			<Form method="post" action="/api/auth/delete" className="stack">
				<h3>{t('account.delete-title')}</h3>
				<p>{t('account.delete-description')}</p>
				{balance > 0 ? (
					<p className="delete-account__forfeit" role="note">
						{t('account.delete-forfeit', { coins: formatCoins(i18n.language, balance) })}
					</p>
				) : null}
				<input type="hidden" name="redirectTo" value={back} />
				{totp ? (
					<div className="field">
						<label htmlFor={fieldId}>{t('account.delete-code')}</label>
						<input id={fieldId} name="code" type="text" inputMode="numeric" autoComplete="one-time-code" maxLength={6} pattern="\d{6}" required />
					</div>
				) : (
					<div className="field">
						<label htmlFor={fieldId}>{t('account.delete-password')}</label>
						<input id={fieldId} name="password" type="password" autoComplete="current-password" maxLength={100} aria-describedby={`${fieldId}-hint`} />
						<p className="hint" id={`${fieldId}-hint`}>
							{t('account.delete-password-hint')}
						</p>
					</div>
				)}
				<div className="actions">
					<a href={back} className="button">
						{t('account.delete-cancel')}
					</a>
					<SubmitButton intent="delete" className="button button--danger">
						{t('account.delete-confirm')}
					</SubmitButton>
				</div>
			</Form>
		</details>
	)
}
