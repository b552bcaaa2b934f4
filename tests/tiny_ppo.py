"""The smallest trainable run the training tests share (budget, exploit)."""
#: a tiny run's network and rollout: a small MLP (no card embedding or instance head), short rollouts, few envs, and
#: checkpoints that never come due
TINY_PPO = """
[ppo]
n_steps = 32
batch_size = 128
n_epochs = 1
net_arch = [16]
card_embedding = 0
instance_head = 0
[train]
num_envs = 8
checkpoint_every = 100_000_000
"""
