import HeraldCore
