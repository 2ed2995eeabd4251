CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"company_id" uuid,
	"requests_per_minute" integer DEFAULT 600 NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text,
	"created_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_scopes_known" CHECK ("api_keys"."scopes" <@ ARRAY['companies:read', 'companies:write', 'employees:read', 'employees:write']::text[]),
	CONSTRAINT "api_keys_scopes_some" CHECK (cardinality("api_keys"."scopes") > 0),
	CONSTRAINT "api_keys_requests_per_minute" CHECK ("api_keys"."requests_per_minute" BETWEEN 1 AND 100000)
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash_unique" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_unique" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "api_keys_created_at_id_index" ON "api_keys" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "api_keys_company_id_index" ON "api_keys" USING btree ("company_id");