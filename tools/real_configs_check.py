#!/usr/bin/env python3
"""real_configs_check: posenc on real config.json files, checked against the
models' own code (issue 20's acceptance: none silently wrong, at least 95%
right, the rest refused by name).

For each config in tests/data/models/real (their sources in SOURCES there)
the check runs `posenc --config FILE -c 'EXPLAIN MODEL'` and sorts the
config into one outcome:

  right (probe)   posenc answers and tools/hf_probe.py, running the model
                  transformers builds from the config, agrees on every layer;
  right (read)    posenc answers, transformers cannot build the family (remote
                  code), and the answer matches the family's own code as read
                  (READ below: the file and lines, and what was compared);
  refused         posenc refuses, and its message names why (the model_type,
                  the key, the mechanism);
  WRONG           posenc answers and the model does otherwise (the probe
                  disagrees), or posenc refuses without a reason;
  unverified      posenc answers, the probe cannot run the model, and nobody
                  has read the code for it: not counted as right.

It prints a table (config, model_type, outcome, detail), the percentages,
and the refusals grouped by model_type with their reasons: what the registry
needs next. Exit status 1 when any outcome is WRONG.

    tools/real_configs_check.py                    all of them
    tools/real_configs_check.py qwen3-8b llava-1.5-7b
    tools/real_configs_check.py --no-probe         posenc's answers only
    tools/real_configs_check.py --json out.json    the outcomes as JSON

Needs build/posenc (or POSENC_PROGRAM); the probe needs torch, transformers
and the posenc Python package (PYTHONPATH=build/hf/lib, as make test-hf sets).
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
REAL = os.path.join(ROOT, "tests", "data", "models", "real")
sys.path.insert(0, os.path.join(ROOT, "tools"))

RIGHT_PROBE = "right (probe)"
RIGHT_READ = "right (read)"
REFUSED = "refused"
WRONG = "WRONG"
UNVERIFIED = "unverified"
OUTCOMES = (RIGHT_PROBE, RIGHT_READ, REFUSED, WRONG, UNVERIFIED)

#: Configs transformers cannot build (the family ships its own code), checked
#: by reading that code against posenc's EXPLAIN MODEL line. Each entry: the
#: file and lines read, and what was compared.
READ = {
    # MiniCPM's remote code, a copy in oshersidi/OCD modeling_minicpm.py @924345eb:
    # head_dim = hidden_size / heads (L371), base rope_theta (L375), rope_scaling
    # "dynamic" -> MiniCPMDynamicNTKScalingRotaryEmbedding with
    # max_position_embeddings (L402-425): past it, base * (factor * seq_len /
    # max_pos - (factor - 1))^(d / (d - 2)) (L215-251); rotate_half (L254-258).
    # tests/hf/test_real_configs.py recomputes that formula against posenc.
    "minicpm-2b-128k.json": "read: openbmb modeling_minicpm.py (copy oshersidi/OCD "
                           "@924345eb L215-258, L371-425): half layout, full head, "
                           "dynamic NTK over max_position_embeddings",
    # MiniCPM-MoE-8x2B: the same modeling_minicpm.py with no rope_scaling:
    # MiniCPMRotaryEmbedding over head_dim = hidden_size / heads (L371), base
    # rope_theta, absent here: MiniCPMConfig's "rope_theta=10000.0" (openbmb
    # configuration_minicpm.py, copy EmotioTech/EmotioLocal @d4495c13);
    # rotate_half (L254-258). tests/hf/test_real_configs.py checks the
    # frequencies.
    "minicpm-moe-8x2b.json": "read: openbmb modeling_minicpm.py (copy oshersidi/OCD @924345eb "
                             "L254-258, L371-375) and configuration_minicpm.py (rope_theta "
                             "default 10000): half layout, full head, no scaling",
    # Qwen 1's remote code, undefdev/Qwen-7B-Chat modeling_qwen.py @04df5dd5
    # (Qwen-1_8B ships a later revision of the same file): rotary dim
    # kv_channels * rotary_pct (L151-188), base rotary_emb_base; past
    # seq_length, ntk_alpha = 2^ceil(log2(len / seq_length) + 1) - 1 (L328-338)
    # and base * alpha^(d / (d - 2)) (L1072-1084); rotate_half on halves
    # (L1097-1117); queries times log_seq_length(i) past seq_length (L193-197,
    # L367-373).
    "qwen-1.8b.json": "read: Qwen modeling_qwen.py (copy undefdev/Qwen-7B-Chat @04df5dd5 "
                      "L151-198, L328-373, L1060-1117): half layout, dynamic NTK alpha, "
                      "logn query scale",
    # DeepSeek V1 remote code (DeepseekConfig, model_type deepseek), a copy in
    # zhexiangzhang/ServerlessMOE modeling_deepseek.py @6e1b013e: head_dim =
    # hidden_size / heads and base rope_theta (L445-449), rope_scaling None ->
    # DeepseekRotaryEmbedding(head_dim) (L464-470, L123-159), rotate_half on
    # halves (L208-232). tests/hf/test_real_configs.py recomputes the frequencies.
    "deepseek-moe-16b.json": "read: deepseek-moe modeling_deepseek.py (copy "
                             "zhexiangzhang/ServerlessMOE @6e1b013e L123-159, L208-232, "
                             "L445-470): half layout, full head, base rope_theta",
    # Orion-14B: vLLM's port vllm/model_executor/models/orion.py @0531c222
    # ("Adapted from .../Orion-14B-Base/blob/main/modeling_orion.py"):
    # head_dim = hidden_size // heads, get_rope(head_dim, rotary_dim=head_dim,
    # base=rope_theta) with the default is_neox_style (half); rope_scaling null.
    # Hunyuan-A13B: Tencent-Hunyuan/Hunyuan-A13B models/modeling_hunyuan.py
    # @2798f3c8 (hunyuan.py's decoder layers): head_dim = hidden_size // heads
    # (L544), rope_scaling "dynamic" with alpha 1000 ->
    # HunYuanDynamicNTKAlphaRotaryEmbedding, base * alpha^(d/(d-2)) at every
    # length (L346-370, L590-597), rotate_half (L372-404), RoPE before the q/k
    # layernorms (L676-680).
    "hunyuan-a13b-instruct.json": "read: Hunyuan-A13B modeling_hunyuan.py (Tencent-Hunyuan/"
                                  "Hunyuan-A13B @2798f3c8 L346-404, L544, L572-606, "
                                  "L676-680): half layout, full head, static NTK alpha",
    "orion-14b.json": "read: Orion modeling_orion.py through vLLM's port (vllm "
                      "models/orion.py @0531c222, OrionAttention get_rope): half layout, "
                      "full head, base rope_theta",
    # Phi-3.5-vision: modeling_phi3_v.py (copy Aritra02091998/Phi-3-vision-128k-
    # instruct-Improvised-for-QLORA-Training @16e16b08): rope_scaling type "su"
    # -> Phi3SuScaledRotaryEmbedding (L319-333): long_factor when max(position)
    # + 1 > original_max_position_embeddings, else short_factor, inv_freq = 1 /
    # (ext * base^(2k/d)), cos and sin times sqrt(1 + ln s / ln original), s =
    # max_position_embeddings / original (L132-170); rotate_half (L215-219).
    # Phi-3-small-8k: its positional_embedding.py (stored file 6779687675):
    # RotaryEmbedding.from_config (L278-288) over hidden_size // heads with base
    # rope_embedding_base; no rope_scaling, so inv_freq = base^(-2i/d) (L157)
    # at t = arange * rope_position_scale (1.0 here, L199-218), rotate_half
    # (L72-94); modeling_phi3_small.py (stored file 7428361816) builds it in
    # every attention layer.
    "phi-3-small-8k-instruct.json": "read: Phi-3-small positional_embedding.py (stored "
                                    "file 6779687675 L72-94, L157, L199-218, L278-288): "
                                    "half layout, full head, base rope_embedding_base",
    "phi-3.5-vision-instruct.json": "read: Phi-3-vision modeling_phi3_v.py (copy "
                                    "Aritra02091998/Phi-3-vision-128k-instruct-Improvised-"
                                    "for-QLORA-Training @16e16b08 L102-219, L299-333): half "
                                    "layout, su = longrope with sqrt(1 + ln s / ln orig)",
    # InternLM2.5-7B-Chat: InternLM2's modeling_internlm2.py (copy NanSang2000/
    # S1mpleAgent @f7dc2819; InternVL's copy IntMeGroup/HarmonyIQA @79a7bf62 has
    # the same rotary code): head_dim = hidden_size / heads (L274), _init_rope
    # (L295-321): rope_scaling "dynamic" -> InternLM2DynamicNTKScalingRotaryEmbedding
    # over max_position_embeddings, base rope_theta: past it, base * (factor *
    # seq_len / max_pos - (factor - 1))^(d / (d - 2)) (L189-215), seq_len the
    # kv length (L362-365); rotate_half on cat(freqs, freqs) (L132-166, L218-233).
    # tests/hf/test_real_configs.py recomputes that formula against posenc.
    "internlm2.5-7b-chat.json": "read: InternLM2 modeling_internlm2.py (copy NanSang2000/"
                                "S1mpleAgent @f7dc2819 L132-233, L274, L295-321, L362-365): "
                                "half layout, full head, dynamic NTK over max_position_embeddings",
    # ChatGLM3-6B: modeling_chatglm.py of the same copy of THUDM/chatglm3-6b
    # (czk1997/chatglm3-copy @340a2eb3): rotary_dim = kv_channels (L750-752),
    # RotaryEmbedding(rotary_dim // 2) (L754): theta = 1 / 10000^(2k / 64) over
    # n_elem = 64, base fixed 10000 (L121-158); apply_rotary_pos_emb rotates
    # the first 64 of each head's 128 in adjacent pairs (reshape(..., rot_dim
    # // 2, 2)) and passes the rest (L160-178). The cache is built for
    # seq_length positions (L822), no scaling.
    "chatglm3-6b.json": "read: ChatGLM3 modeling_chatglm.py (czk1997/chatglm3-copy @340a2eb3 "
                        "L121-178, L750-754, L822): interleaved pairs on the first half "
                        "of the head (64 of 128), base 10000",
    # GLM-4-9B (base, chat, chat-1m), the ChatGLM-format remote code shipped
    # beside each config (ModelScope downloads in aifunny/Hate-Detection
    # @aea1921d chuli/glm4-1M更新包/modeling_chatglm.py; the other two folders'
    # RotaryEmbedding and apply_rotary_pos_emb are the same bytes):
    # RotaryEmbedding(kv_channels // 2, rope_ratio) (L845-849), theta = 1 /
    # (10000 * rope_ratio)^(2k / 64) (L93-131; rope_ratio defaults to 1,
    # configuration_chatglm.py L28, L54); the first 64 of each head's 128
    # channels rotate in adjacent pairs, the rest pass (L134-152); the cache
    # spans seq_length positions (L891), no other scaling.
    "glm-4-9b.json": "read: GLM-4 modeling_chatglm.py (aifunny/Hate-Detection @aea1921d "
                     "L93-152, L845-849, L891): interleaved pairs on 64 of 128, base 10000",
    "glm-4-9b-chat.json": "read: GLM-4 modeling_chatglm.py (aifunny/Hate-Detection @aea1921d "
                          "L93-152, L845-849, L891): interleaved pairs on 64 of 128, base "
                          "10000 * rope_ratio 500",
    "glm-4-9b-chat-1m.json": "read: GLM-4 modeling_chatglm.py (aifunny/Hate-Detection @aea1921d "
                             "L93-152, L845-849, L891): interleaved pairs on 64 of 128, base "
                             "10000 * rope_ratio 10000",
}


def _program():
    return os.environ.get("POSENC_PROGRAM") or os.path.join(ROOT, "build", "posenc")


def configs(names=None, directory=REAL):
    paths = sorted(glob.glob(os.path.join(directory, "*.json")))
    if names:
        want = {n if n.endswith(".json") else n + ".json" for n in names}
        paths = [p for p in paths if os.path.basename(p) in want]
        missing = want - {os.path.basename(p) for p in paths}
        if missing:
            raise SystemExit(f"real_configs_check: no such config: {sorted(missing)}")
    return paths


def model_types(d):
    """The config's model_type, and its nested parts' ones ("qwen3_5 >
    qwen3_5_text"), for grouping."""
    mt = str(d.get("model_type", "?"))
    for key in ("text_config", "llm_config", "language_config", "thinker_config",
                "decoder_config", "llm_cfg"):
        sub = d.get(key)
        if isinstance(sub, dict) and sub.get("model_type") and sub["model_type"] != mt:
            return f"{mt} > {sub['model_type']}"
    return mt


def explain(path):
    """posenc's answer: (ok, first line or the refusal's message)."""
    r = subprocess.run([_program(), "--config", path, "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True, timeout=60)
    if r.returncode == 0:
        return True, r.stdout
    msg = (r.stderr.strip() or r.stdout.strip()).replace(path, os.path.basename(path))
    return False, msg


def refusal_reason(msg):
    """The reason in a refusal, without the program's and the file's prefix;
    None when the message names nothing."""
    m = re.sub(r"^posenc: (--config: )?[^:]*\.json: ", "", msg.splitlines()[0] if msg else "")
    if re.search(r"model_type '([^']+)' is not in posenc's model registry", m):
        t = re.search(r"model_type '([^']+)'", m).group(1)
        return f"model_type '{t}' not in the registry"
    return m.strip() or None


def _hf_can_build(d):
    try:
        from transformers import CONFIG_MAPPING
    except ImportError:
        return None
    return d.get("model_type") in CONFIG_MAPPING


def check(path, probe=True, mutate=None):
    """One config's outcome: a dict name, model_type, outcome, detail.
    mutate: given to hf_probe.probe (the tests' deliberately wrong answer)."""
    name = os.path.basename(path)
    with open(path) as f:
        d = json.load(f)
    row = {"name": name, "model_type": model_types(d)}
    ok, text = explain(path)
    if not ok:
        why = refusal_reason(text)
        row.update(outcome=REFUSED if why else WRONG,
                   detail=why or f"refused without a reason: {text[:200]}")
        return row
    schemes = sorted({m for m in re.findall(r"^layers? [0-9,\-]+: (\S+)", text, re.M)})
    summary = "layers: " + ", ".join(schemes)
    if name in READ and mutate is None:
        row.update(outcome=RIGHT_READ, detail=f"{summary}; {READ[name]}")
        return row
    if not probe:
        row.update(outcome=UNVERIFIED, detail=f"{summary}; not probed (--no-probe)")
        return row
    buildable = _hf_can_build(d)
    if buildable is None:
        row.update(outcome=UNVERIFIED, detail=f"{summary}; transformers is not installed")
        return row
    if not buildable:
        row.update(outcome=UNVERIFIED, detail=f"{summary}; model_type {d.get('model_type')!r} "
                   "is not in transformers (remote code) and nobody has read it")
        return row
    import hf_probe

    rep = hf_probe.probe(path, mutate=mutate)
    if rep.status == hf_probe.VERIFIED:
        row.update(outcome=RIGHT_PROBE, detail=f"{rep.scheme}; {rep.how}")
    elif rep.status == hf_probe.DISAGREE:
        row.update(outcome=WRONG, detail=f"probe disagrees: {rep.detail}")
    else:
        row.update(outcome=UNVERIFIED, detail=f"probe: {rep.status}: {rep.detail}")
    return row


def summarize(rows, out=sys.stdout):
    w = max([len(r["name"]) for r in rows] + [6])
    t = max([len(r["model_type"]) for r in rows] + [10])
    print(f"{'config':<{w}}  {'model_type':<{t}}  {'outcome':<13}  detail", file=out)
    for r in rows:
        print(f"{r['name']:<{w}}  {r['model_type']:<{t}}  {r['outcome']:<13}  "
              f"{r['detail'][:160]}", file=out)
    n = len(rows)
    counts = {o: sum(r["outcome"] == o for r in rows) for o in OUTCOMES}
    right = counts[RIGHT_PROBE] + counts[RIGHT_READ]
    print(file=out)
    print(f"{n} configs: right {right} ({100.0 * right / max(n, 1):.1f}%: "
          f"{counts[RIGHT_PROBE]} by the probe, {counts[RIGHT_READ]} by reading), "
          f"refused {counts[REFUSED]} ({100.0 * counts[REFUSED] / max(n, 1):.1f}%), "
          f"WRONG {counts[WRONG]}, unverified {counts[UNVERIFIED]}", file=out)
    refused = {}
    for r in rows:
        if r["outcome"] == REFUSED:
            refused.setdefault(r["model_type"], []).append(r)
    if refused:
        print(file=out)
        print("refusals by model_type (what the registry needs):", file=out)
        for mt in sorted(refused):
            reasons = sorted({r["detail"] for r in refused[mt]})
            names = ", ".join(r["name"][:-5] for r in refused[mt])
            print(f"  {mt}: {'; '.join(reasons)}  [{names}]", file=out)
    return counts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="configs (file names in tests/data/models/real)")
    ap.add_argument("--dir", default=REAL, help="the folder of config.json files")
    ap.add_argument("--no-probe", action="store_true", help="posenc's answers only")
    ap.add_argument("--json", metavar="FILE", help="write the outcomes as JSON")
    a = ap.parse_args(argv)
    rows = [check(p, probe=not a.no_probe) for p in configs(a.names, a.dir)]
    counts = summarize(rows)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 1 if counts[WRONG] else 0


if __name__ == "__main__":
    sys.exit(main())
