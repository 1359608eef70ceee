import Foundation

/// A real photo for the end-to-end tests that resize on the server: a 480 x 360 colour gradient
/// JPEG made once with libvips (`vips xyz`, `linear`, `bandjoin_const`, `jpegsave --Q 75 --strip`).
/// The tests' other photos are a JPEG's first bytes and filler, which no decoder reads.
enum ReferencePhotoFixture {
    static let width = 480
    static let height = 360
    static let jpeg = Data(
        base64Encoded: """
            /9j/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/
            2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAAR
            CAFoAeADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQID
            AAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNk
            ZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl
            5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC
            AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpj
            ZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk
            5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDw/FLinYp2K+3ucqY3FLinYpcUrmiY3FLinYpcVNzRMbinYp2KXFK5aY3F
            LinYpcUrmiY3FLinYp2KVy0xuKXFOxS4pXNExuKXFOxS4pXLTG4p2KdilxU3NExuKXFOxS4pXNExuKXFOxTsUrlpjQKXFOxS
            4pXNExuKXFOxS4pXLTG4pcU/FLipuaJjcUuKdilxSuWmNxS4p2Kdilc0TGYp2KdilxSuWmNxS4p2KXFK5omNxSgU/FLipuaJ
            jcUuKdilxSuWmNxS4p2Kdilc0TGYpwFOxS4pXLTG4pcU7FLipuaJjcUuKdinAUrlpjcUuKdilxSuaJjcUuKdilxSuWmNxTsU
            7FLilc0TG4pcU7FLilc0TG4pcU7FOxU3LTG4pcU7FLilc0TPPMUuKdilxX0Fz8TTG4pcU7FOxU3NExuKXFOxS4pXLTG4pcU7
            FLilc0TG4p2KdilxSuaJjcUuKdilxSuWmNxS4p2KdipuaJjcUuKdilxSuWmNxS4p2KXFK5omNxTsU7FLilctMbilxTsUuKVz
            RMbilxTsU7FK5aY3FLinYpcVNzRMaBS4p2KXFK5omNxS4p+KXFK5aY3FLinYpcUrmiY3FLinYp2Km5aYzFOxTsUuKVzRMbil
            xTsUuKVy0xuKXFOxTsUrmiY3FLinYpQKVy0xuKXFOxS4pXNExuKdinYpcVNzRMbilxTsUuKVy0xuKXFOxTsUrmiY3FLinYpc
            UrlpjcUuKdilxU3NExuKdinYpcUrlpjQKXFOxS4pXNExuKXFOxTsUrlpnneKdinYpcV79z8UTG4pcU7FLilc0TG4pcU7FOxS
            uWmNxS4p2KXFK5omNxS4p2KXFK5aY3FLin4pcVNzRMbilxTsUuKVzRMbilxTsU7FK5aYzFOxTsUuKVzRMbilxTsUuKVy0xuK
            XFPxS4qbmiY3FLinYpcUrlpjcUuKcBTsUrmiYzFOxTsUuKVy0xuKXFOxS4pXNExuKXFPApcVNzRMbilxTsUuKVy0xuKXFOxS
            4pXNExuKdinYpcUrlpjcUoFOxS4pXNExuKXFOxTsVNy0xuKXFOxS4pXNExuKUCnYpQKVy0xuKdinYpcUrmiY3FLinYpcUrmi
            Y3FLinYpwFTctMbilxTsUuKVzRMbilxTsUuKVy0xuKdinYpcUrmiY3FLinYpcUrlpnnmKXFOxS4r37n4omNxS4p+KXFK5aY3
            FLinYpcUrmiY3FLinYp2KVzRMZinYp2KXFTctMbilxTsUuKVzRMbilxT8UuKVy0xuKXFOxS4pXNExuKXFOxTsVNy0xmKdinY
            pcUrmiY3FLinYpcUrmiY3FLin4pcUrlpjcUuKdilxSuaJjcUuKdinYqblpjMU7FOxS4pXNExoFLinYpcUrlpjcUuKfilxSua
            JjcUuKcBS4pXLTGgUuKdilxU3NExuKdinYpcUrmiY3FLinYpcUrlpjcUuKdinYpXNExuKXFOxS4pXLTG4pcU7FLilc0TG4p2
            KdilxU3LTG4pcU7FLilc0TG4pcU7FOxSuWmMxTsU7FLilc0TG4pcU7FLipuaJjcUuKfilxSuWmed4p2KdilxX0Fz8UTG4pcU
            7FLilctMbilxT8UuKm5omNxS4p2KXFK5aY3FLinYp2KVzRMZinYp2KXFK5omNxS4p2KXFK5aY3FLin4pcVNzRMbilxTsUuKV
            y0xuKUCnYpcUrmiY3FOxTsUuKVy0xuKXFOxS4pXNExuKXFOxTsVNzRMbilxTsUuKVy0xuKXFOApcUrmiY3FOxTsUuKVy0xuK
            XFOxS4pXNExuKXFOxTsVNy0xuKXFOxS4pXNExuKXFOxS4pXLTG4p2KdilxSuaJjcUuKdilxSuaJjcUuKdinYqblpjMU7FOxS
            4pXNExuKUCnYpcUrlpjcUuKfilxSuaJjcUuKdilxSuWmNxS4p2KdipuaJjMU7FOxS4pXLTG4pcU7FLilc0TPPMUuKdilxXv3
            PxRMbinYp2KXFK5aY3FLinYpcUrmiY3FLinYp2KVy0xuKXFOxS4pXNExuKXFOxS4pXLTG4p2KdilxU3NExuKXFOxS4pXNExu
            KXFOxTsUrlpjcUuKdilxSuaJjcUuKdilxU3LTG4p2KdilxSuaJjcUuKdilxSuWmNxS4p2Kdilc0TG4pcU7FLilctMbilxTsU
            uKVzRMaBTsU7FLipuaJjcUuKdilxSuWmNxS4p2Kdilc0TGgUuKdilxSuWmNxS4p2KXFTc0TG4pcU/FLilctMbilxTsUuKVzR
            MbilxTsU7FK5aYzFOxTsUuKVzRMbilxTsUuKVzRMbilAp2KdipuWmNxS4p2KXFK5omNxS4p2KXFK5aY3FOxTsUuKVzRM88xS
            4p2KXFe/c/FExuKXFOxTsUrlpjMU7FOxS4pXNExuKXFOxS4pXLTG4pcU7FOxU3NExuKXFOxS4pXLTG4pcU7FLilc0TG4p2Kd
            ilxSuWmNxS4p2KXFK5omNxS4p2KdipuaJjcUuKdilxSuWmNxS4p2KXFK5omNxTsU7FLilctMaBS4p2KUClc0TG4pcU7FOxU3
            LTG4pcU7FLilc0TG4pcU7FLilctMbinYp2KXFK5omNxS4p2KXFK5omNxS4p2KdipuWmNxS4p2KXFK5omNxS4p2KXFK5aY3FO
            xTsUuKVzRMbilxTsUuKVy0xuKXFOxTsVNzRMZinYp2KXFK5aY3FLinYpcUrmiY3FLinYp2KVzRMbilxTsUuKVy0xuKXFOxS4
            qbmiZ55ilxTsU7FfQXPxNMbilxTsUuKVzRMbilxTsUuKm5aY3FOxTsUuKVzRMbilAp2KXFK5omNxS4p2KdilctMbilxTsUuK
            VzRMbilAp2KXFK5aY3FOxTsUuKm5omNxS4p2KXFK5aY3FLinYp2KVzRMbilxTsUuKVzRMbilxTsUuKm5aY3FOxTsUuKVzRMb
            ilxTsUuKVy0xuKXFOxTsUrmiYzFOxTsUuKVy0xuKXFOxS4pXNExoFLin4pcVNy0xuKXFOxS4pXNExuKXFOxTsUrmiYzFOxTs
            UuKVy0xuKXFOxS4qbmiY3FLin4pcUrlpjcUuKdilxSuaJjcUuKdilxSuWmNxTsU7FLilc0TG4pcU7FLipuWmNxS4p+KXFK5o
            mNxS4p2KXFK5omeeYpcU7FLivoLn4mmNxS4p+KXFTc0TG4pcU4ClxSuWmNxS4p2KXFK5omNxTsU7FLilctMbilxTsUuKVzRM
            bilxTsU7FTc0TG4pcU7FLilctMbilxTsUuKVzRMbinYp2KXFK5aY3FLinYpcUrmiY3FLinYp2Km5aYzFOAp2KXFK5omNxS4p
            2KXFK5aY3FLin4pcUrmiY3FLinYpcUrmiY3FLinYp2Km5aYzFOxTgKXFK5omNxS4p2KXFK5aY3FLin4pcUrmiY3FLinYpcUr
            lpjcUuKdinYqbmiYzFOxTsUuKVy0xoFLinYpcUrmiY3FLin4pcUrmiY3FLinYpcUrlpjQKXFOxTsVNzRMZinYp2KXFK5aY3F
            LinYpcUrmiY3FLinYp2KVy0zzvFOxTsUuK9+5+KJjcUuKdilxSuWmNxS4p2Kdilc0TG4pcU7FLilc0TG4pcU7FLipuWmNxTs
            U7FLilc0TG4pcU7FLilctMbilxTsU7FK5omMxTsU7FKBSuWmNxSgU7FLilc0TG4pcU/FLipuWmNxS4p2KUClc0TG4pcU7FOx
            SuaJjMU7FOxS4pXLTG4pcU7FLipuaJjcUuKfilxSuWmNxS4p2KXFK5omNxSgU7FOxSuWmMxTsU7FLilc0TG4pcU7FLilc0TG
            4pcU7FOxU3LTG4pcU7FLilc0TG4pcU4CnYpXLTGYp2KdilxSuaJjcUuKdilxU3LTG4pcU7FOxSuaJjcUuKdilxSuWmNxS4p2
            KXFK5omNxTsU7FLilc0TG4pcU7FLipuWmeeYpcU7FLivoLn4omNAp2KdilxSuWmNxS4p2KXFK5omNxS4p2KdipuaJjQKXFOx
            S4pXLTG4pcU7FLilc0TG4pcU/FLilctMbilxTsUuKVzRMbilxTsU7FTctMZinYp2KXFK5omNxS4p2KXFK5aY3FKBTsU7FK5o
            mNxS4p2KXFK5omNxS4p2KXFTctMbinAU7FLilc0TG4pcU7FLilctMbilxTsU7FK5omNxS4p2KXFK5aY3FLinYpcVNzRMbinY
            p2KXFK5aY3FLinYpcUrmiY3FLinYp2KVzRMbilxTsUuKVy0xuKXFOxS4qbmiY3FOxTsUuKVy0xuKXFOxS4pXNExuKXFOxTsU
            rlpjcUuKdilxSuaJjcUuKdilxU3LTG4p2KdilxSuaJnneKdinYpcV9Bc/FExuKXFOxS4qblpjcUuKfilxSuaJjcUuKdilxSu
            WmNxS4p2Kdilc0TGYp2KdilxSuWmNApcU7FLipuaJjcUuKfilxSuaJjcUuKdilxSuWmNxS4p2Kdilc0TGYpwFOxS4pXLTG4p
            cU7FLilc0TG4pcU7FOxU3LTG4pcU7FKBSuaJjcUuKdilxSuWmNxTsU7FLilc0TG4pcU7FLipuaJjcUuKdinYpXLTG4pcU7FL
            ilc0TG4pcU7FLilctMbinYp2KXFK5omNApcU7FLipuWmNxS4p2Kdilc0TG4pcU7FLilctMbilxTsUuKVzRMbinYp2KXFK5om
            NxS4p2KXFTctMbilxTsU7FK5omNxS4p2KXFK5aY3FLinYpcUrmiZ55ilxTsU7Fe/c/E0xmKdinYpcUrmiY3FLinYpcUrmiY3
            FLin4pcUrlpjcUuKdilxSuaJjcUuKcBTsVNy0xmKdinYpcUrmiY3FLinYpcUrlpjcUuKeBS4pXNExuKXFOxS4pXLTG4pcU7F
            LipuaJjcU7FOxS4pXNExuKUCnYpcUrlpjcUuKfilxSuaJjcUuKdilxSuWmNxS4p2KUCpuaJjcU7FOxS4pXLTG4pcU7FLilc0
            TG4pcU7FOApXNExuKXFOxS4pXLTG4pcU7FLipuaJjcU7FOxS4pXLTG4pcU7FLilc0TG4pcU7FOxSuWmNxS4p2KXFK5omNxS4
            p2KXFTctMbinYp2KXFK5omNxS4p2KXFK5omNxS4p2KdilctMbilxTsUuKVzRM88xS4p2KXFe/c/E0xuKXFOxTsUrmiYzFOxT
            sUuKVy0xuKXFOxS4qbmiY3FLin4pcUrlpjcUuKdilxSuaJjcUuKdinYpXNExmKdinYpcUrlpjQKXFOxS4pXNExuKXFPxS4qb
            lpjcUuKcBS4pXNExoFLinYp2KVy0xmKdinYpcUrmiY3FLinYpcVNy0xuKXFOxTsUrmiY3FLinYpcUrmiY3FLinYpcUrlpjcU
            7FOxS4pXNExuKXFOxS4qblpjcUuKdinYpXNExuKXFOxS4pXLTG4pcU7FLilc0TG4p2KdilxSuaJjcUuKdilxU3LTG4pcU7FO
            xSuaJjcUuKdilxSuWmNxS4p2KXFK5omNxS4p+KXFK5aY3FLinYpcUrmiY3FLinYp2Km5aZ53ilxT8UuK+gufiiY3FLinYpcU
            rmiY3FKBTsUuKm5aY3FOxTsUuKVzRMbilxTsUuKVy0xuKXFOxTsUrmiY3FLinYpcUrmiY3FLinAU7FTctMZinYp2KXFK5omN
            xS4p2KXFK5aY3FLinYp2KVzRMbilxTsUuKVy0xuKXFOxS4qbmiY3FOxTsUuKVy0xuKXFOxS4pXNExuKXFOxTsUrmiY3FLinY
            pcUrlpjcUoFOxS4qbmiY3FLin4pcUrlpjcUuKdilxSuaJjcUuKdinYpXLTGYp2KdilxSuaJjcUuKdilxU3NExuKXFPxS4pXL
            TG4pcU7FLilc0TG4pcU7FOxSuWmMxTsU7FLilc0TG4pcU7FLipuWmNxS4p+KXFK5omNxS4p2KXFK5aZ55ilxTsUuK+gufiiY
            3FLinYpwFTctMbilxTsUuKVzRMbilxTsUuKVzRMbinYp2KXFK5aY3FLinYpcVNzRMbilxTsU7FK5aY3FLinYpcUrmiY3FLin
            YpcUrlpjQKdinYpcUrmiY3FLinYpcUrlpjcUuKdinYqbmiY0ClxTgKXFK5omNxS4p2KXFK5aY3FOxTsUuKVzRMbilxTgKXFT
            ctMbilxTsU7FK5omNxS4p2KXFK5aY3FLinYpcUrmiY3FKBT8UuKVy0xuKXFOxS4pXNExuKXFOxTsVNzRMZinYp2KXFK5aY3F
            LinYpcUrmiY3FLin4pcUrlpjcUuKdilxU3NExuKXFOxTsUrlpjMU7FOxS4pXNExuKXFOxS4pXNExuKXFPxS4pXLTPO8U7FOx
            S4r37n4omNxS4p2KXFK5aY3FLinYp2KVzRMbilxTsUuKVy0xuKXFOxS4qbmiY3FOxTsUuKVzRMaBS4p2KUClctMbilxTsU7F
            K5omNxS4p2KXFK5aY3FLinYpcVNzRMbinYp2KXFK5aY3FLinYpcUrmiY3FLinYp2KVy0xuKXFOxS4pXNExuKXFOxS4qbmiY3
            FOxTsUuKVy0xuKXFOxS4pXNExuKXFOxTsUrlpjMU7FOxS4pXNExuKXFOxS4qblpjcUuKfilxSuaJjcUuKdilxSuWmNxS4p2K
            XFK5omNxTsU7FLilc0TG4pcU7FLipuWmNxS4p2Kdilc0TG4pcU7FLilctMbilxTsUuKVzRMbinYp2KXFK5aY3FLinYpcVNzR
            M88xSgU7FLivoLn4omNxTsU7FLilctMbilxTsUuKVzRMbilxTsU4CpuWmNxS4p2KXFK5omNxS4p2KXFK5aY3FOxTsUuKVzRM
            bilxTsUuKm5omNxS4p2KdilctMbilxTsUuKVzRMbilxTsUuKVy0xoFOxTsUuKVzRMbilxTsUuKVy0xuKXFOxTsVNzRMZinYp
            2KXFK5aY3FLinYpcUrmiY3FLin4pcUrmiY3FLinYpcVNy0xuKXFOxTsUrmiYzFOxTsUuKVy0xuKXFOxS4pXNExuKXFPxS4pX
            LTG4pcU7FLilc0TG4pcU7FOxU3NExmKdinYpcUrlpjcUuKdilxSuaJjcUuKdinYpXLTG4pcU7FLipuaJjcUuKdilxSuWmNxT
            sU7FLilc0TPPMUuKdilxX0Fz8TTG4pcU7FLipuaJjcU7FOxS4pXNExuKXFOxS4pXLTG4pcU7FOxSuaJjcUoFOxS4pXLTG4pc
            U7FLipuaJjcU7FOxS4pXLTG4pcU7FLilc0TG4pcU7FOxSuWmMxTsU4ClxSuaJjcUuKdilxU3NExuKXFPxS4pXLTG4pcU7FLi
            lc0TG4pcU7FOxSuWmMxTsU7FLilc0TGgUuKdilxU3LTG4pcU/FLilc0TG4pcU7FLilctMbilxTsU7FK5omMxTsU7FLilc0TG
            4pcU7FLipuWmNxS4p2Kdilc0TG4pcU7FLilctMbilxTsUuKVzRMbinYp2KXFK5aY3FLinYpcVNzRMbilxTsU7FK5omNxS4p2
            KXFK5aY3FLinYpcUrmiZ55ilxTsU7Fe/c/E0xmKdinYpQKVzRMbilAp2KXFK5aY3FLin4pcUrmiY3FLinYpQKVy0xuKXFOxT
            sVNzRMZinYp2KXFK5omNxS4p2KXFK5aY3FLin4pcUrmiY3FLinYpcVNy0xuKXFOxTsUrmiYzFOxTsUuKVy0xuKXFOxS4pXNE
            xuKXFPxS4pXLTG4pcU7FLilc0TG4pcU4CnYqbmiYzFOxTsUuKVy0xuKXFOxS4pXNExuKXFPxS4pXLTG4pcU7FLipuaJjcUuK
            dilxSuWmNxTsU7FLilc0TG4pcU7FLilctMbilxTsU7FK5omNxS4p2KXFK5omNxS4p2KXFTctMbilxT8UuKVzRMbilxTgKXFK
            5aY3FLinYp2KVzRMZinYp2KXFTctM88xS4p2KXFfQXPxRMbilxTsU7FK5omNxS4p2KXFK5aY3FLinYpcVNzRMbilAp+KXFK5
            aY3FLinYpcUrmiY3FLinYpcUrmiY3FOAp2KXFK5aY3FLinYpcVNzRMbilxTsU7FK5aY3FLinYpcUrmiY3FLinYpcUrlpjcU7
            FOxS4pXNExuKXFOxS4qblpjcUuKdinYpXNExuKXFOxS4pXNExuKXFOxS4pXLTG4p2KdilxSuaJjcUuKdilxU3LTG4pcU7FOx
            SuaJjcUuKdilxSuWmNxS4p2KXFK5omNxTsU7FLilctMbilxTsUuKm5omNxS4p2Kdilc0TG4pcU7FLilctMbilxTsUuKVzRMb
            inYp2KXFK5aY3FLinYpcVNzRMbilxTsU7FK5aZ53ilxTsU7FfQXPxRMbilxTsUuKm5omNxS4p2KXFK5aY3FOAp2KUClc0TG4
            pcU7FLilctMbilxTsU7FK5omNxS4p2KUClctMbilxTsUuKm5omNxTsU7FLilctMbilxTsUuKVzRMbilxTsU7FK5omNxS4p2K
            XFTctMbilxTsUuKVzRMbinYp2KXFK5aY0ClxTsUuKVzRMbilxTsU7FK5aY3FLinYpcUrmiY3FLinYpcVNy0xuKdinYpcUrmi
            Y3FLinYpcUrmiY3FLinYp2KVy0xuKXFOxS4qbmiY3FLinYpcUrlpjcU7FLinYpXNExuKUCnYpcUrlpjcUuKdilxSuaJjcU7F
            OxS4pXLTG4pcU7FLipuaJjcUuKdinYpXNExoFLinYpcUrlpnnmKXFFFfQH4ohcUuKKKRoh2KXFFFSaIXFLiiikWhcU7FFFI0
            QuKUCiikWhcUuKKKRoh2KXFFFItC4pcUUVJohcU7FFFItC4pcUUUjRC4pcUUUjRDsUuKKKRaFxS4ooqTRC4p2KKKRaFxS4oo
            pGiFxS4oopFodilxRRSNELilxRRUloXFOxRRSNELilxRRSNELilxRRSLQ7FLiiipNELilxRRSLQuKXFFFI0Q7FLiiikWhcUu
            KKKRohcU7FFFItC4pcUUVJohcUuKKKRoj//Z
            """, options: .ignoreUnknownCharacters)!

    /// A JPEG's width and height from its frame header (SOFn), nil when the bytes have none.
    static func jpegSize(_ bytes: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](bytes)
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            // SOF0 to SOF15 carry the size; C4 (tables), C8 (reserved) and CC (arithmetic) do not.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return (width, height)
            }
            index += 2 + length
        }
        return nil
    }
}
