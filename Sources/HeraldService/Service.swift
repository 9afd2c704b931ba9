import HeraldCore
import HeraldHTTP
import HeraldPostgres
import HeraldText
