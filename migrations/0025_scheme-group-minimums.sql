ALTER TABLE "schemes" ADD COLUMN "min_manager" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "min_peer" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "min_direct_report" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "min_other" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_group_minimums" CHECK ("schemes"."min_manager" BETWEEN 0 AND 8 AND "schemes"."min_peer" BETWEEN 0 AND 8 AND "schemes"."min_direct_report" BETWEEN 0 AND 8
        AND "schemes"."min_other" BETWEEN 0 AND 8);