// Express app with planted fake secrets.
const express = require("express");

// Decoys
const token = process.env.GITHUB_TOKEN;
const apiKey = process.env.STRIPE_KEY || "";
const config = { password: process.env.DB_PASSWORD, secret: config.secret };
const tokenLength = 32;
const secretHeader = "x-webhook-signature";
const exampleKey = "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx";
const docs = "Set GITHUB_TOKEN to a token like ghp_<your token here>";
const jwtExample = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const id = "4170f844-77d2-4f7e-a487-65b8f5b18ef1";

// Planted
const stripe = require("stripe")("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");
const restricted = "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";
const testKey = "sk_test_51K2R7lgmKSdqnVSZUMhAdOJE6oUe0DBWWNAubwRXOMdS3O2MwUt0yV1IxBGzCygOP4M6hF267lTCIMhhflbUX8Co7Gz2f9vCkc";
const slackBot = 'xoxb-501854025043-8879894025966-T4MmkgGZO847UZhVfwVWE0RI';
const slackUser = `xoxp-625900839048-290949734843-8497475746674-9f569a59108dd6f7fe859d41bec128ae`;
const firebaseConfig = { apiKey: "AIzaSyBDwrejEfF5fw6CtaUTeWQQ5bwRZ3ezVZ0", projectId: "demo-shop" };
const session = { secret: "vjoUa#lm6k@Iy0t0", resave: false };
const authHeader = { Authorization: "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpYXQiOjE3MDQzNzM4ODUsIm5hbWUiOiJzdmMtMzg1ZWRkIiwic2NvcGUiOiJhZG1pbiIsInN1YiI6IjU5MTAxOTY3NTQifQ.2cbFm-JJMy4iVOxklagsNwALFbBSfDe6yTpyODCH5u8" };
const shopify = { accessToken: "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" };
const doToken = "dop_v1_69c4a9fbd28ab24d281c6b5b910fb128fe04c063540c205cd45929a925cfc210";
const gitlab = { token: "glpat-IoVGJhm6Wj7H7mfy700-" };

module.exports = express();
