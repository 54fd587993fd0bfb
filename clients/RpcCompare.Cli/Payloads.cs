using RpcCompare.Contracts;

namespace RpcCompare.Cli;

/// <summary>Deterministic payloads, so the same command sends the same bytes on every binding.</summary>
internal static class Payloads
{
    public static byte[] Bytes(int size)
    {
        var data = new byte[size];
        for (var i = 0; i < data.Length; i++)
        {
            data[i] = (byte)(i * 7);
        }

        return data;
    }

    public static Rgba32[] Records(int count)
    {
        var records = new Rgba32[count];
        for (var i = 0; i < records.Length; i++)
        {
            records[i] = new Rgba32 { R = (byte)i, G = (byte)(i >> 8), B = (byte)(i >> 16), A = 255 };
        }

        return records;
    }
}
