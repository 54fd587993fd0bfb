using System.Text;

namespace RpcCompare.Fast.Generator;

/// <summary>Indented C# text.</summary>
internal sealed class CodeText
{
    private readonly StringBuilder _text = new();
    private int _depth;

    public void Line(string line = "")
    {
        _text.Append(line.Length == 0 ? "" : new string(' ', _depth * 4)).Append(line).Append('\n');
    }

    public void Open(string header)
    {
        if (header.Length > 0)
        {
            Line(header);
        }

        Line("{");
        _depth++;
    }

    public void Close(string end = "}")
    {
        _depth--;
        Line(end);
    }

    public override string ToString() => _text.ToString();
}
