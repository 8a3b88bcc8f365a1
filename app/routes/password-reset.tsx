import { useTranslation } from 'react-i18next'
import { StaticPage } from '#app/components/static-page'

export default function PasswordResetPage() {
	const { t } = useTranslation()
	return <StaticPage title={t('pages.password-reset.title')} />
}
