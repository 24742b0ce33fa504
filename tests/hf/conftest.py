"""tests/hf: posenc against Hugging Face transformers' own running code
(make test-hf). Models are built from configs with random weights; nothing is
downloaded."""
