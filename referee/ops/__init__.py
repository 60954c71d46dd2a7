"""Operating referees: starting replicas as processes, and the failure drill."""
