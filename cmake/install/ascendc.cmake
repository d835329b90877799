# Intentionally empty: some sample build scripts include() this file
# unconditionally; there are no device kernels to build on a CPU.
