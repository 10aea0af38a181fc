import warnings

# PettingZoo's API test warns about all-zero action masks of agents not to move; that is
# the documented convention here, not a problem.
warnings.filterwarnings("ignore", message="Action mask numpy array is all zeros")
