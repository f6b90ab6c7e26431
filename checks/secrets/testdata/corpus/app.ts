// TypeScript client with planted fake secrets.
import { Octokit } from "@octokit/rest";

// Decoys
const fallback: string = process.env.OPENAI_API_KEY ?? "";
type Secret = { password: string };
const passwordPattern: RegExp = /^(?=.*[A-Z])(?=.*\d).{12,}$/;

// Planted
const githubToken: string = "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";
export const refresh = "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";
const anthropic: string = "sk-ant-api03-t3Ot15S4NcT2CrS_rWh3mV6rWnryAYUFypz_vCxGVjRIFpxrrY0GapmqC3BKWSvg0JJ-sYV0KLvkLZW4-UtMM31cmOC5fAA";
const clientSecret: string = "5jsUq4duWSSdFV7lglLABStcCgIIC/DCJZmTxYpawMo=";
const octokit = new Octokit({ auth: "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" });
