-- An attempt being checked (its password not yet verified) is neither a success nor a failure.
ALTER TABLE "login_attempts" ALTER COLUMN "succeeded" DROP NOT NULL;
