-- The deployment's default e-mail templates (brand_id NULL); a brand's own rows override them.
-- The texts equal DEFAULT_TEMPLATES in app/modules/email/templates.ts, and
-- tests/integration/email/templates.test.ts fails if the two drift apart. Dollar-quoted, so the copy
-- needs no escaping; ON CONFLICT DO NOTHING keeps an edited default when this runs on a seeded database.
INSERT INTO "email_templates" ("key", "brand_id", "subject", "body") VALUES
  ('activate_account', NULL, $tpl$Your 360° feedback with {{brandName}}: activate your account$tpl$,
$tpl$Hello {{recipientName}},

{{brandName}} has invited you to take part in a 360° feedback programme. It brings together your own view of how you work and the views of colleagues you choose, so you can see your strengths clearly and decide where to grow next.

To begin, activate your account and choose a password:

{{link}}

Once you are signed in, you will find your self-assessment and can invite colleagues to give you feedback. Their answers are shown to you combined and without names, and only once enough of them have responded.

This link is personal to you and can be used once. If it no longer works, ask your contact at {{brandName}} to send a new one.

Warm regards,
The {{brandName}} team$tpl$),
  ('colleague_invite', NULL, $tpl${{employeeName}} would value your feedback$tpl$,
$tpl$Hello {{colleagueName}},

{{employeeName}} is taking part in a 360° feedback programme run by {{brandName}} and has asked you to share your perspective on how they work.

The questionnaire covers {{employeeName}}'s strengths and areas for development. Your answers are combined with those of other colleagues and shown without your name, so please be candid and constructive. You can save your answers and come back to finish later.

Please respond by {{dueDate}}:

{{link}}

This link is personal to you, so please do not forward it. If you would rather not take part, you can simply ignore this e-mail.

Thank you for your time,
The {{brandName}} team$tpl$),
  ('reminder', NULL, $tpl$A friendly reminder: your feedback questionnaire is still open$tpl$,
$tpl$Hello {{recipientName}},

A feedback questionnaire in {{schemeName}} is still waiting for you. It is open until {{dueDate}}.

You can pick up where you left off; anything you have already answered has been saved:

{{link}}

If you have submitted your answers in the meantime, thank you, and please disregard this message.

Kind regards,
The {{brandName}} team$tpl$),
  ('reset_password', NULL, $tpl$Reset your password for the {{brandName}} feedback portal$tpl$,
$tpl$Hello {{recipientName}},

We received a request to reset the password of your account on the {{brandName}} 360° feedback portal. To choose a new password, use this link:

{{link}}

The link can be used once and expires soon. If you did not ask for a new password, you can safely ignore this e-mail: your current password stays as it is.

Kind regards,
The {{brandName}} team$tpl$),
  ('verify_email', NULL, $tpl$Please confirm your e-mail address$tpl$,
$tpl$Hello {{recipientName}},

Please confirm that this is the right e-mail address for your account on the {{brandName}} 360° feedback portal, so that we can keep you up to date about your feedback:

{{link}}

If you did not expect this e-mail, you can safely ignore it.

Kind regards,
The {{brandName}} team$tpl$),
  ('response_ready', NULL, $tpl$Your 360° feedback report is ready$tpl$,
$tpl$Hello {{recipientName}},

Good news: enough of your colleagues have shared their feedback, and your report for {{schemeName}} is ready.

It sets your own view beside your colleagues' combined answers, by competency and by question. Take your time with it: many people find it helps to read it twice, note what surprises them and choose one or two things to focus on.

{{link}}

Your colleagues' answers are shown without their names. If you would like to talk your results through, your contact at {{brandName}} will be glad to help.

Warm regards,
The {{brandName}} team$tpl$),
  ('setup_admin', NULL, $tpl$Finish setting up your feedback portal$tpl$,
$tpl$Hello {{recipientName}},

The feedback portal at {{appUrl}} has no administrator yet. Use this link to create the first administrator account:

{{link}}

The link can be used once. If you did not install this portal, you can ignore this e-mail.$tpl$)
ON CONFLICT DO NOTHING;
